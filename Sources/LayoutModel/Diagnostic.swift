/// Everything that can be wrong with a layout, syntactic or semantic, with
/// the values a tool needs to act on it.
public enum DiagnosticKind: Hashable, Sendable {
    // MARK: Reading and lexing
    /// The file could not be read (missing, a directory, no permission).
    case unreadableFile(reason: String)
    /// The bytes are not UTF-8.
    case invalidUTF8
    /// A character that starts no token.
    case unexpectedCharacter(String)
    /// A numeric literal that is not a finite `Double` (e.g. `1e999`).
    case numberOutOfRange(String)

    // MARK: Syntax
    /// A token other than the grammar allows here.
    case unexpectedToken(expected: String, found: String)
    /// A line that starts with a word that is no keyword and no `view.attribute`.
    case unknownKeyword(String, suggestion: String?)
    /// `view.foo` where `foo` is no attribute.
    case unknownAttribute(String, suggestion: String?)
    /// A name where a number or metric was expected, and no metric has that name.
    /// A name where a number or a metric goes; `expected` says what the place takes.
    case unknownMetric(String, expected: String? = nil)
    /// `2 * a.width`: the multiplier must follow the second item.
    case misplacedMultiplier
    /// `a.width = b.width / 0`.
    case divisionByZero
    /// No `container` line.
    case missingContainer
    /// A second `container` line.
    case duplicateContainer
    /// The per-file diagnostic limit was reached; the rest was not checked.
    case tooManyErrors(limit: Int)

    // MARK: Declarations
    case duplicateView(String)
    case duplicateVariant(String)
    case duplicateMetric(String)
    case duplicateMargins(String)
    /// A second `intrinsic`, `hugging`, `compression` or `baselines` line for one view.
    case duplicateContentLine(keyword: String, view: String)
    /// `intrinsic`, `hugging`, `compression` or `baselines` given to the container,
    /// which has no content of its own.
    case contentOnContainer(keyword: String)
    /// An intrinsic size that is negative (`axis` says which).
    case negativeIntrinsicSize(axis: String, value: Double)
    /// A name that has a fixed meaning (`super`, `default`, ...) used for a declaration.
    case reservedName(String, meaning: String)
    /// A view no `views` line declares, and the closest declared name.
    case undeclaredView(String, suggestion: String? = nil)
    /// A name that is not `[A-Za-z_][A-Za-z0-9_]*` (`what` says which kind of name).
    case invalidName(String, what: String)
    case undeclaredVariant(String)
    /// A container or variant size that is negative or not finite.
    case invalidContainerSize(String)

    // MARK: Constraints
    /// A location attribute related to a dimension, or the reverse.
    case locationAgainstDimension(first: Attribute, second: Attribute)
    /// An x-axis location related to a y-axis location.
    case axisMismatch(first: Attribute, second: Attribute)
    /// A leading-family attribute related to a left-family one (`a.leading = b.left`):
    /// its meaning would change with the layout direction, so Auto Layout refuses it.
    case mixedDirection(first: Attribute, second: Attribute)
    /// A location attribute set to a bare number (Auto Layout forbids it).
    case locationAgainstConstant(Attribute)
    /// A location attribute with a multiplier of 0 (a location equal to a constant).
    case zeroMultiplierOnLocation(Attribute)
    case priorityOutOfRange(Double)
    /// A non-finite multiplier, constant, priority, margin or size (`field` says which).
    case nonFiniteNumber(field: String)
    /// An identifier that the printer could not write back (contains a line break).
    case invalidIdentifier(String)
    /// A number beyond what the solvers accept (``NumericRange``): an error.
    case numberOutsideAcceptedRange(field: String, value: Double, limit: String)

    // MARK: Warnings
    /// A number beyond what the solvers answer to full precision, but within
    /// what they accept (``NumericRange``).
    case numberBeyondPreciseRange(field: String, value: Double, limit: String)

    /// A constraint whose multiplier differs from another's on the same
    /// attributes by less than ``NumericRange/parallelMultipliers``: nearly
    /// parallel rows, beyond the precise range.
    case nearlyParallel(multiplier: Double, other: Double)

    /// A `when` trait that neither the container nor any variant has: the
    /// constraint is never active (a typo?).
    case traitNeverActive(String)

    /// Whether it puts the layout beyond the precise range (answers may
    /// differ from the exact ones): what `fuzz --arbiter` files as "imprecise".
    public var limitsPrecision: Bool {
        switch self {
        case .numberBeyondPreciseRange, .nearlyParallel: return true
        default: return false
        }
    }

    /// The message a compiler would print. Names from the input are clipped to
    /// 64 characters so that a 10 MB token cannot make a 10 MB message.
    public var message: String {
        func clip(_ s: String) -> String { s.count > 64 ? String(s.prefix(64)) + "..." : s }
        switch self {
        case .unreadableFile(let reason): return "cannot read file: \(reason)"
        case .invalidUTF8: return "file is not valid UTF-8"
        case .unexpectedCharacter(let c): return "unexpected character \(c)"
        case .numberOutOfRange(let text): return "number '\(clip(text))' is out of range"
        case .unexpectedToken(let expected, let found): return "expected \(expected), found \(found)"
        case .unknownKeyword(let word, let suggestion):
            return "unknown keyword '\(clip(word))'" + (suggestion.map { "; did you mean '\(clip($0))'?" } ?? "")
                + " (a constraint starts with 'view.attribute')"
        case .unknownAttribute(let name, let suggestion):
            return "unknown attribute '\(clip(name))'" + (suggestion.map { "; did you mean '\(clip($0))'?" } ?? "")
        case .unknownMetric(let name, let expected):
            return "unknown metric '\(clip(name))'" + (expected.map { "; expected \($0), or a metric declared on a 'metrics' line" } ?? "")
        case .misplacedMultiplier:
            return "a multiplier follows the second item: write 'a.width = b.height * 2'"
        case .divisionByZero: return "division by zero"
        case .missingContainer: return "missing 'container W x H' line"
        case .duplicateContainer: return "duplicate 'container' line"
        case .tooManyErrors(let limit): return "too many errors (\(limit)); stopping here"
        case .duplicateView(let name): return "view '\(clip(name))' is declared twice"
        case .duplicateVariant(let name): return "variant '\(clip(name))' is declared twice"
        case .duplicateMetric(let name): return "metric '\(clip(name))' is declared twice"
        case .duplicateMargins(let name): return "margins of '\(clip(name))' are set twice"
        case .duplicateContentLine(let keyword, let view): return "'\(keyword)' of '\(clip(view))' is set twice"
        case .contentOnContainer(let keyword):
            return "the container has no content: '\(keyword)' applies to a view, not to 'super'"
        case .negativeIntrinsicSize(let axis, let value):
            return "intrinsic \(axis) \(formatNumber(value)) must be >= 0 (use 'none' for no intrinsic \(axis))"
        case .mixedDirection(let first, let second):
            return "cannot relate '\(first.rawValue)' to '\(second.rawValue)': leading and trailing attributes follow the "
                + "layout direction, left and right do not; use the same family on both sides"
        case .reservedName(let name, let meaning): return "'\(clip(name))' is reserved (\(meaning))"
        case .undeclaredView(let name, let suggestion):
            return "undeclared view '\(clip(name))'" + (suggestion.map { "; did you mean '\(clip($0))'?" } ?? " (declare it on a 'views' line)")
        case .invalidName(let name, let what): return "invalid \(what) name '\(clip(name))': use letters, digits and '_', not starting with a digit"
        case .undeclaredVariant(let name): return "undeclared variant '\(clip(name))'"
        case .invalidContainerSize(let what): return "invalid container size: \(what)"
        case .locationAgainstDimension(let first, let second):
            return "cannot relate \(first.isDimension ? "dimension" : "location") '\(first.rawValue)' to "
                + "\(second.isDimension ? "dimension" : "location") '\(second.rawValue)'"
        case .axisMismatch(let first, let second):
            return "cannot relate \(first.axis.rawValue) '\(first.rawValue)' to \(second.axis.rawValue) '\(second.rawValue)'"
        case .locationAgainstConstant(let attribute):
            return "location '\(attribute.rawValue)' cannot equal a constant; relate it to another view's attribute"
        case .zeroMultiplierOnLocation(let attribute):
            return "multiplier 0 makes location '\(attribute.rawValue)' equal a constant"
        case .priorityOutOfRange(let value):
            return "priority \(formatNumber(value)) is outside 1...1000"
        case .nonFiniteNumber(let field): return "\(field) is not a finite number"
        case .invalidIdentifier(let identifier): return "identifier '\(clip(identifier))' contains a line break"
        case .numberOutsideAcceptedRange(let field, let value, let limit):
            return "\(field) \(formatNumber(value)) is outside the range the solvers accept (\(limit)); see the format's numeric range"
        case .nearlyParallel(let multiplier, let other):
            return "multiplier \(formatNumber(multiplier)) is within 1e-6 of another constraint's (\(formatNumber(other))) on the "
                + "same attributes: the rows are nearly parallel, which the solvers' tolerances cannot tell apart; "
                + "answers may differ from the exact ones by more than the cross-check tolerance"
        case .numberBeyondPreciseRange(let field, let value, let limit):
            return "\(field) \(formatNumber(value)) is beyond the range the solvers answer to full precision (\(limit)); "
                + "answers may differ from the exact ones by more than the cross-check tolerance"
        case .traitNeverActive(let trait):
            return "trait '\(clip(trait))' is on no container or variant: this constraint is never active"
        }
    }
}

/// One finding about a layout, located where possible.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable, Comparable {
        case note, warning, error

        private var rank: Int { self == .note ? 0 : self == .warning ? 1 : 2 }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A secondary location ("previous declaration is here").
    public struct Note: Hashable, Sendable {
        public var message: String
        public var location: SourceLocation?
        public init(_ message: String, at location: SourceLocation?) {
            self.message = message
            self.location = location
        }
    }

    public var severity: Severity
    public var kind: DiagnosticKind
    public var location: SourceLocation?
    public var notes: [Note]

    public init(_ severity: Severity, _ kind: DiagnosticKind, at location: SourceLocation?, notes: [Note] = []) {
        self.severity = severity
        self.kind = kind
        self.location = location
        self.notes = notes
    }

    /// An error.
    public init(_ kind: DiagnosticKind, at location: SourceLocation?, notes: [Note] = []) {
        self.init(.error, kind, at: location, notes: notes)
    }

    public var message: String { kind.message }

    /// `FILE:LINE:COL: error: message`, without the source excerpt.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)"
    }
}

extension Array where Element == Diagnostic {
    /// True if any diagnostic is an error (warnings do not make a layout invalid).
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
