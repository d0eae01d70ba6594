/// cropjob's version: part of every output's key and of the manifest.
public enum CropKitVersion {
  public static let string = "0.2.0"
}
