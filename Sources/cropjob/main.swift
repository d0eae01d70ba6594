import CropKit
print(Probe.version())
