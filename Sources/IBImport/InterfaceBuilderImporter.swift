import Foundation
import LayoutModel

/// Imports Interface Builder files (`.storyboard`, `.xib`) into the constraint model.
///
/// Each scene's root view, each top-level view of a xib, and each table or
/// collection cell becomes one ``ImportedScreen``: its views flattened into
/// the container's coordinates, its constraints (with the ones UIKit makes
/// for stack views, autoresizing masks, layout guides and content sizes),
/// its size-class variations as variants, and the frames Xcode stored as
/// `expect ... observed xcode within 0.5` lines.
public enum InterfaceBuilderImporter {
    /// Xcode rounds frames to pixels: stored frames are an oracle within half a point.
    public static let xcodeTolerance = 0.5
    /// The source named in the observed `expect` lines.
    public static let xcodeSource = "xcode"

    /// Reads and imports a file.
    /// - Throws: ``ImportError`` (located) when the file cannot be read, is not
    ///   an iOS Interface Builder document, or is malformed XML.
    /// - Complexity: O(*n*) in the file's size, plus the validation of each screen.
    public static func importFile(atPath path: String, options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportResult {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? Int, size > options.maximumBytes {
            throw ImportError(ImportDiagnostic(.error, file: path, line: 1, column: 1,
                                               message: "the file has \(size) bytes, more than the importer's limit of \(options.maximumBytes)"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(ImportDiagnostic(.error, file: path, line: 1, column: 1, message: "cannot read the file"))
        }
        return try importDocument([UInt8](data), fileName: path, options: options)
    }

    /// Imports a document's bytes; `fileName` names it in diagnostics and provenance.
    /// - Throws: ``ImportError`` as ``importFile(atPath:options:)``.
    public static func importDocument(_ bytes: [UInt8], fileName: String, options: ImportOptions = ImportOptions())
        throws(ImportError) -> ImportResult
    {
        let root: XMLElement
        do {
            root = try XMLReader.parse(bytes, maximumBytes: options.maximumBytes, maximumDepth: options.maximumDepth)
        } catch {
            throw ImportError(ImportDiagnostic(.error, file: fileName, line: error.line, column: error.column, message: error.message))
        }
        func fail(_ message: String, _ element: XMLElement) -> ImportError {
            ImportError(ImportDiagnostic(.error, file: fileName, line: element.line, column: element.column, message: message))
        }
        guard root.name == "document" else {
            throw fail("not an Interface Builder document (the root element is <\(root.name.prefix(40))>, not <document>)", root)
        }
        let runtime = root["targetRuntime"] ?? ""
        if runtime.hasPrefix("MacOSX") {
            // Why refused, not approximated: AppKit files are y-up and their
            // constraints act on alignment rectangles (per-control insets of
            // 2-6 points), so their stored frames are not the constraints'
            // solution and would judge every solver wrong.
            throw fail("a macOS (AppKit) document: not supported (AppKit is y-up and constrains alignment rectangles, not frames)", root)
        }
        if !runtime.isEmpty, !runtime.hasPrefix("iOS") {
            throw fail("target runtime '\(runtime.prefix(40))' is not supported (iOS only)", root)
        }
        var context = DocumentContext(fileName: fileName, document: root, options: options)
        return context.run()
    }
}

/// State shared by every screen of one document.
struct DocumentContext {
    let fileName: String
    let document: XMLElement
    let options: ImportOptions
    var warnings: [ImportDiagnostic] = []
    let toolsVersion: String?
    /// The Interface Builder build that saved the file (`toolsVersion` before
    /// the dot, e.g. 14868 for Xcode 11), or the iOS plug-in's version when the
    /// tools version is a placeholder (Xcode 15 wrote 32700.99.1234).
    let toolsBuild: Int?
    /// `toolsBuild` in thousands (24 and up: saved by Xcode 26).
    let toolsMajor: Int?
    let device: XMLElement?
    let usesAutoLayout: Bool
    let isStoryboard: Bool

    init(fileName: String, document: XMLElement, options: ImportOptions) {
        self.fileName = fileName
        self.document = document
        self.options = options
        toolsVersion = document["toolsVersion"]
        var build = toolsVersion.flatMap { v in Int(v.split(separator: ".").first ?? "") }
        if let b = build, b >= 32000,
           let plugIn = document.child("dependencies")?.children("plugIn")
               .first(where: { $0["identifier"] == "com.apple.InterfaceBuilder.IBCocoaTouchPlugin" }),
           let version = plugIn["version"].flatMap({ Int($0.split(separator: ".").first ?? "") }) {
            build = version
        }
        toolsBuild = build
        toolsMajor = build.map { $0 >= 1000 ? $0 / 1000 : $0 }
        device = document.child("device")
        usesAutoLayout = document["useAutolayout"] == "YES"
        isStoryboard = (document["type"] ?? "").contains("Storyboard")
    }

    func diagnostic(_ severity: ImportDiagnostic.Severity, _ message: String, _ element: XMLElement) -> ImportDiagnostic {
        ImportDiagnostic(severity, file: fileName, line: element.line, column: element.column, message: message)
    }

    /// A root to import: the view, what surrounds it, and a name.
    struct Root {
        var element: XMLElement
        var controller: XMLElement?
        var sceneID: String?
        var title: String
        var isCell: Bool
        var bars: Bars
        /// A table cell that sizes itself: its table's row height is
        /// automatic (`rowHeight="-1"`) and it sets none of its own.
        var selfSizing = false
    }

    struct BarRect: Equatable {
        var y: Double
        var width: Double
        var height: Double
    }

    struct Bars: Equatable {
        var navigation = false
        /// The navigation controller's stored bar (`y`, `height`): bar, large
        /// title or sheet, as IB laid them out (files before Xcode 11 store it
        /// at y = 0 under a 20-point status bar).
        var navigationBar: BarRect?
        var tab = false
        var toolbar = false
        var statusBarHidden = false
        /// A xib view simulated at a freeform size (`simulatedDestinationMetrics`):
        /// IB draws it alone, not on a screen, so no status bar or home indicator.
        var freeformDestination = false
    }

    mutating func run() -> ImportResult {
        var roots: [Root] = []
        if !usesAutoLayout {
            warnings.append(diagnostic(.warning, "the document does not use Auto Layout (useAutolayout is not YES): its views are laid out by autoresizing", document))
        }
        let context = isStoryboard ? navigationContext() : [:]
        for (index, topLevel) in (document.child("scenes")?.children("scene") ?? []).enumerated() {
            guard let objects = topLevel.child("objects") else { continue }
            for object in objects.children where object.name != "placeholder" {
                guard let view = object.child(key: "view") ?? object.children.first(where: { $0["key"] == "view" }) else { continue }
                guard isViewElement(view) else { continue }
                let title = object["customClass"] ?? object["userLabel"] ?? object["title"] ?? "\(object.name)\(index + 1)"
                var bars = context[object["id"] ?? ""] ?? Bars()
                bars = simulatedBars(object, bars)
                roots.append(Root(element: view, controller: object, sceneID: topLevel["sceneID"], title: title, isCell: false, bars: bars))
                collectCells(in: view, sceneID: topLevel["sceneID"], prefix: title, into: &roots)
            }
        }
        if !isStoryboard, let objects = document.child("objects") {
            for object in objects.children where isViewElement(object) {
                let title = object["customClass"] ?? object["userLabel"] ?? object["reuseIdentifier"] ?? object.name
                let isCell = Self.cellElements.contains(object.name)
                roots.append(Root(element: object, controller: nil, sceneID: nil, title: title, isCell: isCell,
                                  bars: simulatedBars(object, Bars())))
                if !isCell { collectCells(in: object, sceneID: nil, prefix: title, into: &roots) }
            }
        }
        if let wanted = options.scene {
            roots = roots.filter { $0.sceneID == wanted || $0.controller?["id"] == wanted || $0.element["id"] == wanted }
        }
        var screens: [ImportedScreen] = []
        var usedNames: Set<String> = []
        let stem = fileSafeName(((fileName as NSString).lastPathComponent as NSString).deletingPathExtension)
        for root in roots {
            var builder = ScreenBuilder(context: self, root: root)
            guard var screen = builder.build() else { continue }
            var name = fileSafeName(stem + "-" + root.title)
            if usedNames.contains(name) {
                var k = 2
                while usedNames.contains("\(name)-\(k)") { k += 1 }
                name = "\(name)-\(k)"
            }
            usedNames.insert(name)
            screen.name = name
            screens.append(screen)
        }
        return ImportResult(screens: screens, warnings: warnings, toolsVersion: toolsVersion, device: device?["id"])
    }

    static let cellElements: Set<String> = ["tableViewCell", "collectionViewCell", "collectionReusableView"]

    /// Whether an element is a view (it has a frame rectangle or is a known view element).
    func isViewElement(_ element: XMLElement) -> Bool {
        element.child("rect", key: "frame") != nil || element.child("subviews") != nil || element.child("constraints") != nil
    }

    /// Cells found anywhere under a root (prototypes, cells): each is its own screen.
    func collectCells(in element: XMLElement, sceneID: String?, prefix: String, into roots: inout [Root],
                      automaticRows: Bool = false) {
        let automaticRows = element.name == "tableView" ? element["rowHeight"] == "-1" : automaticRows
        for child in element.children {
            if Self.cellElements.contains(child.name) {
                let title = prefix + "-" + (child["reuseIdentifier"] ?? child["customClass"] ?? child["id"] ?? child.name)
                var root = Root(element: child, controller: nil, sceneID: sceneID, title: title, isCell: true, bars: Bars())
                root.selfSizing = automaticRows && child.name == "tableViewCell" && child["rowHeight"] == nil
                roots.append(root)
            } else {
                collectCells(in: child, sceneID: sceneID, prefix: prefix, into: &roots, automaticRows: automaticRows)
            }
        }
    }

    /// The bars a controller's simulated metrics show, over what its place in
    /// the storyboard gives it. Why not a `navigationItem` or `tabBarItem`:
    /// every controller may carry one, and IB draws no bar for it (the stored
    /// frames of 25 screens of the sample start right under the status bar).
    func simulatedBars(_ object: XMLElement, _ inherited: Bars) -> Bars {
        var bars = inherited
        for metrics in object.children where metrics.name.hasPrefix("simulated") || metrics.name == "nil" || metrics.name == "freeformSimulatedSizeMetrics" {
            switch (metrics.name, metrics["key"]) {
            case ("simulatedNavigationBarMetrics", "simulatedTopBarMetrics"): bars.navigation = true
            case ("nil", "simulatedTopBarMetrics"): bars.navigation = false
            case ("simulatedTabBarMetrics", "simulatedBottomBarMetrics"): bars.tab = true
            case ("simulatedToolbarMetrics", "simulatedBottomBarMetrics"): bars.toolbar = true
            case ("nil", "simulatedBottomBarMetrics"): bars.tab = false
            case ("nil", "simulatedStatusBarMetrics"): bars.statusBarHidden = true
            case ("simulatedStatusBarMetrics", "simulatedStatusBarMetrics"):
                if metrics["statusBarStyle"] == "none" { bars.statusBarHidden = true }
            case ("freeformSimulatedSizeMetrics", "simulatedDestinationMetrics"): bars.freeformDestination = true
            default: break
            }
        }
        if object["navigationBarHidden"] == "YES" { bars.navigation = false }
        return bars
    }

    /// Which controllers sit in a navigation or tab bar controller, from the
    /// storyboard's relationship and push segues (bounded fixpoint). A segue
    /// anywhere in a scene (from a cell, a button, a bar item) leaves from the
    /// scene's controller; a controller that simulates a navigation bar passes
    /// it on to what it pushes.
    func navigationContext() -> [String: Bars] {
        var controllers: [String: XMLElement] = [:]
        var segues: [String: [XMLElement]] = [:]
        for scene in document.child("scenes")?.children("scene") ?? [] {
            let objects = scene.child("objects")?.children ?? []
            for object in objects where object["id"] != nil { controllers[object["id"] ?? ""] = object }
            guard let main = objects.first(where: { $0["sceneMemberID"] == "viewController" }), let id = main["id"] else { continue }
            var found: [XMLElement] = []
            Self.collectSegues(in: scene, into: &found, depth: 0)
            segues[id] = found
        }
        var bars: [String: Bars] = [:]
        for _ in 0..<8 {
            var changed = false
            for id in segues.keys.sorted() {
                guard let object = controllers[id] else { continue }
                var mine = bars[id] ?? Bars()
                if object.children.contains(where: { $0.name == "simulatedNavigationBarMetrics" && $0["key"] == "simulatedTopBarMetrics" }) {
                    mine.navigation = true
                }
                for segue in segues[id] ?? [] {
                    guard let destination = segue["destination"], let target = controllers[destination] else { continue }
                    var theirs = bars[destination] ?? Bars()
                    let before = theirs
                    let kind = segue["kind"] ?? ""
                    let relationship = segue["relationship"] ?? ""
                    if object.name == "navigationController", relationship == "rootViewController" {
                        theirs.navigation = true
                        if let bar = object.child("navigationBar", key: "navigationBar"), let rect = bar.child("rect", key: "frame"),
                           let y = Double(rect["y"] ?? "0"), let height = Double(rect["height"] ?? "0"), height > 0, y >= 0 {
                            theirs.navigationBar = BarRect(y: y, width: Double(rect["width"] ?? "0") ?? 0, height: height)
                        }
                        if object["navigationBarHidden"] == "YES" { theirs.navigation = false }
                        theirs.tab = theirs.tab || mine.tab
                    } else if object.name == "tabBarController", relationship == "viewControllers" {
                        theirs.tab = true
                    } else if kind == "show" || kind == "push", mine.navigation {
                        theirs.navigation = true
                        theirs.navigationBar = theirs.navigationBar ?? mine.navigationBar
                        theirs.tab = theirs.tab || (mine.tab && target["hidesBottomBarWhenPushed"] != "YES")
                    }
                    if theirs != before {
                        bars[destination] = theirs
                        changed = true
                    }
                }
            }
            if !changed { break }
        }
        return bars
    }

    /// Every `<segue>` under an element, depth-first (bounded like the reader's nesting).
    static func collectSegues(in element: XMLElement, into found: inout [XMLElement], depth: Int) {
        guard depth < 256 else { return }
        for child in element.children {
            if child.name == "segue" { found.append(child) } else { collectSegues(in: child, into: &found, depth: depth + 1) }
        }
    }
}
