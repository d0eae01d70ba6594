import CVipsShim
public enum Probe { public static func version() -> String { String(cString: cj_vips_version()) } }
