// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev, 2.1.x): fixed-arity C, called
// from Swift directly (Sources/CropImaging/JPEGDirect.swift).
#include <turbojpeg.h>
