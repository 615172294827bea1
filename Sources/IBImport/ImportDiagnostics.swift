import LayoutModel

/// A located message from the importer: `FILE:LINE:COL: warning: ...`.
public struct ImportDiagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable { case warning, error }

    public var severity: Severity
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(_ severity: Severity, file: String, line: Int, column: Int, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }
}

/// Why a file could not be imported at all (exit 65).
public struct ImportError: Error, Sendable, CustomStringConvertible {
    public var diagnostic: ImportDiagnostic

    public init(_ diagnostic: ImportDiagnostic) { self.diagnostic = diagnostic }

    public var description: String { diagnostic.description }
}

/// How imported views are named.
public enum ImportNaming: String, Sendable, CaseIterable {
    /// From `userLabel`, else the custom class, else the element (`label`, `button`): unique and readable.
    case label
    /// Every view by its Interface Builder object id (`-` becomes `_`, a leading digit gets a `v`),
    /// so a script can map the views back to the file.
    case id
}

/// What a caller may choose.
public struct ImportOptions: Sendable {
    public var naming: ImportNaming
    /// Only the scene (storyboard `sceneID`, or a view controller's or top-level view's object id) with this id.
    public var scene: String?
    /// Files larger than this are refused.
    public var maximumBytes: Int
    /// Deeper element nesting is refused.
    public var maximumDepth: Int

    public init(naming: ImportNaming = .label, scene: String? = nil, maximumBytes: Int = 32 << 20, maximumDepth: Int = 256) {
        self.naming = naming
        self.scene = scene
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }
}

/// One imported screen: a scene's root view, a xib's top-level view, or a cell.
public struct ImportedScreen: Sendable {
    /// A name safe as a file name (`[A-Za-z0-9_-]`, at most 80 characters), unique in the file.
    public var name: String
    /// The Interface Builder object id of the root (the scene's view controller for a storyboard scene).
    public var rootID: String
    /// Provenance lines (without `# `): source, scene, device, Xcode version, what was approximated.
    public var header: [String]
    public var layout: Layout
    /// Views with an `expect ... observed xcode` line, and all imported views (guides and the container excluded).
    public var observedViews: Int
    public var importedViews: Int
    /// Approximations and skipped elements in this screen, located in the IB file.
    public var warnings: [ImportDiagnostic]
}

extension ImportedScreen {
    /// A string made safe as a file name the way screen names are (`[A-Za-z0-9_-]`, at most 80 characters).
    public static func safeName(_ raw: String) -> String { fileSafeName(raw) }
}

/// A whole file's import.
public struct ImportResult: Sendable {
    public var screens: [ImportedScreen]
    /// Warnings that belong to no one screen.
    public var warnings: [ImportDiagnostic]
    public var toolsVersion: String?
    public var device: String?
}

/// Turns a string from the input into a name of the `.layout` format: letters,
/// digits and `_` kept, runs of anything else become one `_`, at most 60
/// characters, a leading digit prefixed with `v`.
func identifierName(_ raw: String, camelCase: Bool) -> String {
    var out = ""
    var upperNext = false
    for scalar in raw.unicodeScalars {
        let ascii = scalar.isASCII
        let isAlnum = ascii && ((scalar.value >= 48 && scalar.value <= 57) || (scalar.value >= 65 && scalar.value <= 90)
                                || (scalar.value >= 97 && scalar.value <= 122) || scalar == "_")
        if isAlnum {
            var character = String(scalar)
            if upperNext, !out.isEmpty { character = character.uppercased() }
            out += character
            upperNext = false
        } else if camelCase {
            upperNext = true
        } else if !out.hasSuffix("_") {
            out += "_"
        }
        if out.utf8.count >= 60 { break }
    }
    if camelCase, let first = out.first, first.isUppercase { out = first.lowercased() + out.dropFirst() }
    if out.isEmpty || out == "_" { return "" }
    if let first = out.utf8.first, first >= 48 && first <= 57 { out = "v" + out }
    return out
}

/// A file-name-safe stem: `[A-Za-z0-9_-]` only, never `.`/`..`, at most 80 characters.
func fileSafeName(_ raw: String) -> String {
    var out = ""
    for scalar in raw.unicodeScalars {
        let ok = scalar.isASCII && ((scalar.value >= 48 && scalar.value <= 57) || (scalar.value >= 65 && scalar.value <= 90)
                                    || (scalar.value >= 97 && scalar.value <= 122) || scalar == "_" || scalar == "-")
        if ok { out.unicodeScalars.append(scalar) } else if !out.hasSuffix("_") { out += "_" }
        if out.utf8.count >= 80 { break }
    }
    while out.hasPrefix("-") || out.hasPrefix("_") { out.removeFirst() }
    return out.isEmpty ? "screen" : out
}
