import CassowaryLayout
import GLPKReference
@testable import IBImport
import LayoutFormat
import LayoutModel
import LayoutSolving
import Testing

/// Small Interface Builder documents written for these tests, one feature each.
enum IB {
    static func storyboard(device: String = "retina4_7", tools: String = "17506", controllerExtras: String = "",
                           rootSize: (Double, Double) = (375, 667), body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES" useSafeAreas="YES" colorMatched="YES" initialViewController="vc1">
            <device id="\(device)" orientation="portrait" appearance="light"/>
            <scenes>
                <scene sceneID="s1">
                    <objects>
                        <viewController id="vc1" customClass="LoginViewController" sceneMemberID="viewController">
                            <view key="view" contentMode="scaleToFill" id="root">
                                <rect key="frame" x="0.0" y="0.0" width="\(rootSize.0)" height="\(rootSize.1)"/>
                                <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
        \(body)
                            </view>
        \(controllerExtras)
                        </viewController>
                    </objects>
                </scene>
            </scenes>
        </document>
        """
    }

    static func xib(_ objects: String, tools: String = "17506") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES" colorMatched="YES">
            <device id="retina4_7" orientation="portrait" appearance="light"/>
            <objects>
                <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
        \(objects)
            </objects>
        </document>
        """
    }

    static func load(_ text: String, naming: ImportNaming = .label, file: String = "test.storyboard") throws -> ImportResult {
        try InterfaceBuilderImporter.importDocument(Array(text.utf8), fileName: file, options: ImportOptions(naming: naming))
    }

    static func only(_ text: String, naming: ImportNaming = .label) throws -> ImportedScreen {
        let result = try load(text, naming: naming)
        guard result.screens.count == 1, let screen = result.screens.first else {
            throw ImportTestError.screens(result.screens.count)
        }
        return screen
    }

    /// The reference's frames by view name.
    static func solve(_ layout: Layout) throws -> [String: Frame] {
        let solution = try GLPKLayoutSolver().load(layout, variant: nil)
        return Dictionary(uniqueKeysWithValues: zip(solution.viewNames, solution.frames))
    }

    /// Observed expectations not met by the reference.
    static func misses(_ layout: Layout) throws -> [String] {
        let solution = try GLPKLayoutSolver().load(layout, variant: nil)
        return solution.check(layout.observations(for: nil)).filter { $0.verdict != .passed }.map { $0.reason ?? "?" }
    }
}

enum ImportTestError: Error { case screens(Int) }

@Suite struct ImporterTests {
    @Test func constraintWithoutFirstItemIsTheOwnersAndMultipliersReadThreeWays() throws {
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="a" userLabel="Card">
                    <rect key="frame" x="16" y="100" width="100" height="50"/>
                    <constraints>
                        <constraint firstAttribute="width" constant="100" id="w1"/>
                        <constraint firstAttribute="width" secondItem="a" secondAttribute="height" multiplier="2:1" id="ar"/>
                    </constraints>
                </view>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="b">
                    <rect key="frame" x="16" y="160" width="300" height="30"/>
                    <constraints>
                        <constraint firstAttribute="height" constant="30" id="h2"/>
                    </constraints>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="c1"/>
                <constraint firstItem="a" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="c2"/>
                <constraint firstItem="b" firstAttribute="leading" secondItem="a" secondAttribute="leading" id="c3"/>
                <constraint firstItem="b" firstAttribute="top" secondItem="a" secondAttribute="bottom" constant="10" id="c4"/>
                <constraint firstItem="b" firstAttribute="width" secondItem="a" secondAttribute="width" multiplier="3/1" id="c5"/>
            </constraints>
            """))
        let text = LayoutPrinter.print(screen.layout)
        #expect(text.contains("card.width = 100 # w1"), "\(text)")
        #expect(text.contains("card.width = card.height * 2 # ar"), "\(text)")
        #expect(text.contains("view.width = card.width * 3 # c5"), "\(text)")
        #expect(ScreenBuilder.multiplier("0.5") == 0.5)
        #expect(ScreenBuilder.multiplier("3/7") == 3.0 / 7.0)
        #expect(ScreenBuilder.multiplier("1:0") == nil)
        #expect(try IB.misses(screen.layout).isEmpty)
        #expect(screen.observedViews == 2)
    }

    @Test func framesAreAccumulatedAndStaleOnesAreNoOracle() throws {
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="outer">
                    <rect key="frame" x="20" y="40" width="200" height="200"/>
                    <subviews>
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="inner">
                            <rect key="frame" x="10" y="10" width="50" height="50"/>
                        </view>
                        <view contentMode="scaleToFill" misplaced="YES" translatesAutoresizingMaskIntoConstraints="NO" id="stale">
                            <rect key="frame" x="0" y="0" width="5" height="5"/>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="inner" firstAttribute="leading" secondItem="outer" secondAttribute="leading" constant="10" id="i1"/>
                        <constraint firstItem="inner" firstAttribute="top" secondItem="outer" secondAttribute="top" constant="10" id="i2"/>
                        <constraint firstItem="inner" firstAttribute="width" constant="50" id="i3"/>
                        <constraint firstItem="inner" firstAttribute="height" constant="50" id="i4"/>
                        <constraint firstItem="stale" firstAttribute="leading" secondItem="outer" secondAttribute="leading" constant="100" id="s1"/>
                    </constraints>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="outer" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="o1"/>
                <constraint firstItem="outer" firstAttribute="top" secondItem="root" secondAttribute="top" constant="40" id="o2"/>
                <constraint firstItem="outer" firstAttribute="width" constant="200" id="o3"/>
                <constraint firstItem="outer" firstAttribute="height" constant="200" id="o4"/>
            </constraints>
            """), naming: .id)
        let frames = try IB.solve(screen.layout)
        #expect(frames["inner"] == Frame(x: 30, y: 50, width: 50, height: 50))
        let observed = screen.layout.observations(for: nil).compactMap { e -> String? in
            if case .frame(let view, _) = e.kind { return view }
            return nil
        }
        #expect(observed == ["outer", "inner"])  // the misplaced view is no oracle
        #expect(screen.layout.observations(for: nil).allSatisfy { $0.observedBy == "xcode" && $0.tolerance == 0.5 })
        #expect(screen.layout.expectations(for: nil).isEmpty)  // observations are not the author's expectations
    }

    @Test func horizontalStackViewGetsUIStackViewsConstraints() throws {
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <stackView opaque="NO" contentMode="scaleToFill" distribution="fillEqually" spacing="10" translatesAutoresizingMaskIntoConstraints="NO" id="stack">
                    <rect key="frame" x="20" y="100" width="335" height="44"/>
                    <subviews>
                        <button opaque="NO" contentMode="scaleToFill" id="b1"><rect key="frame" x="0.0" y="0.0" width="105" height="44"/></button>
                        <button opaque="NO" contentMode="scaleToFill" id="b2"><rect key="frame" x="115" y="0.0" width="105" height="44"/></button>
                        <button opaque="NO" contentMode="scaleToFill" hidden="YES" id="gone"><rect key="frame" x="0" y="0" width="10" height="44"/></button>
                        <button opaque="NO" contentMode="scaleToFill" id="b3"><rect key="frame" x="230" y="0.0" width="105" height="44"/></button>
                    </subviews>
                    <constraints>
                        <constraint firstAttribute="height" constant="44" id="sh"/>
                    </constraints>
                </stackView>
            </subviews>
            <constraints>
                <constraint firstItem="stack" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="k1"/>
                <constraint firstAttribute="trailing" secondItem="stack" secondAttribute="trailing" constant="20" id="k2"/>
                <constraint firstItem="stack" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="k3"/>
            </constraints>
            """), naming: .id)
        let frames = try IB.solve(screen.layout)
        let width = (335.0 - 20) / 3
        #expect(abs((frames["b2"]?.width ?? 0) - width) < 1e-6)
        #expect(abs((frames["b3"]?.x ?? 0) - (20 + 2 * width + 20)) < 1e-6)
        #expect(try IB.misses(screen.layout).isEmpty)
        // A stale stored frame is reported as a difference, not hidden.
        var stale = screen.layout
        stale.expectations = stale.expectations.map { e in
            guard case .frame("b2", var f) = e.kind else { return e }
            f.width = 98
            return Expectation(.frame(view: "b2", f), observedBy: e.observedBy, tolerance: e.tolerance)
        }
        #expect(try IB.misses(stale).count == 1)
        #expect(!screen.layout.observations(for: nil).contains { if case .frame("gone", _) = $0.kind { true } else { false } })
    }

    @Test func autoresizingViewsKeepTheirFrameAndMask() throws {
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <view contentMode="scaleToFill" id="banner">
                    <rect key="frame" x="10" y="607" width="355" height="50"/>
                    <autoresizingMask key="autoresizingMask" widthSizable="YES" flexibleMinY="YES"/>
                </view>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="above">
                    <rect key="frame" x="10" y="557" width="355" height="50"/>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="above" firstAttribute="leading" secondItem="banner" secondAttribute="leading" id="a1"/>
                <constraint firstItem="above" firstAttribute="trailing" secondItem="banner" secondAttribute="trailing" id="a2"/>
                <constraint firstItem="banner" firstAttribute="top" secondItem="above" secondAttribute="bottom" id="a3"/>
                <constraint firstItem="above" firstAttribute="height" constant="50" id="a4"/>
            </constraints>
            """), naming: .id)
        var layout = screen.layout
        #expect(try IB.misses(layout).isEmpty)
        // The mask, not the frame: a taller container moves the banner down and keeps its width flexible.
        layout.container = ContainerSize(width: 375, height: 767)
        let frames = try IB.solve(layout)
        #expect(frames["banner"] == Frame(x: 10, y: 707, width: 355, height: 50))
        #expect(screen.observedViews == 1)  // the autoresizing view's frame is an input, not an oracle
    }

    /// A label 8 below the safe area's top, stored at `y`, in a controller with these extras, saved by `tools`.
    static func labelUnderTheSafeArea(y: Double, tools: String, controllerExtras: String) throws -> ImportedScreen {
        try IB.only(IB.storyboard(tools: tools, controllerExtras: controllerExtras, body: """
            <subviews>
                <label opaque="NO" text="Title" translatesAutoresizingMaskIntoConstraints="NO" id="title" horizontalHuggingPriority="251" verticalHuggingPriority="251">
                    <rect key="frame" x="16" y="\(y)" width="42" height="20.5"/>
                    <fontDescription key="fontDescription" type="system" pointSize="17"/>
                </label>
            </subviews>
            <viewLayoutGuide key="safeArea" id="safe"/>
            <constraints>
                <constraint firstItem="title" firstAttribute="leading" secondItem="safe" secondAttribute="leading" constant="16" id="t1"/>
                <constraint firstItem="title" firstAttribute="top" secondItem="safe" secondAttribute="top" constant="8" id="t2"/>
            </constraints>
            """))
    }

    @Test func safeAreaOfAControllerInANavigationController() throws {
        let navigationBar = "<simulatedNavigationBarMetrics key=\"simulatedTopBarMetrics\" prompted=\"NO\"/>"
        // Xcode 10 (build 14460) on a 4.7" phone: 20 status bar + 44 navigation bar + 8.
        let screen = try Self.labelUnderTheSafeArea(y: 72, tools: "14460", controllerExtras: navigationBar)
        #expect(try IB.misses(screen.layout).isEmpty)
        let label = screen.layout.views.first { $0.name == "label" }
        #expect(label?.content.intrinsicSize == IntrinsicSize(width: 42, height: 20.5))
        #expect(label?.content.hugging == AxisPriorities(horizontal: 251, vertical: 251))
        // Xcode 11 to 14.1 draw home-button phones without a status bar: 44 + 8.
        #expect(try IB.misses(Self.labelUnderTheSafeArea(y: 52, tools: "17506", controllerExtras: navigationBar).layout).isEmpty)
        #expect(try !IB.misses(Self.labelUnderTheSafeArea(y: 72, tools: "17506", controllerExtras: navigationBar).layout).isEmpty)
        // A navigation item alone draws no bar: 20 + 8.
        let item = "<navigationItem key=\"navigationItem\" title=\"Hi\" id=\"ni\"/>"
        #expect(try IB.misses(Self.labelUnderTheSafeArea(y: 28, tools: "14460", controllerExtras: item).layout).isEmpty)
    }

    /// A root's body: a view pinned to the safe area's top and bottom and the root's sides, stored at `y` with that size.
    static func boxFillingTheSafeArea(y: Double, width: Double, height: Double) -> String {
        """
        <subviews>
            <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="box">
                <rect key="frame" x="0" y="\(y)" width="\(width)" height="\(height)"/>
            </view>
        </subviews>
        <viewLayoutGuide key="safeArea" id="safe"/>
        <constraints>
            <constraint firstItem="box" firstAttribute="top" secondItem="safe" secondAttribute="top" id="b1"/>
            <constraint firstItem="box" firstAttribute="bottom" secondItem="safe" secondAttribute="bottom" id="b2"/>
            <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="b3"/>
            <constraint firstItem="box" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="b4"/>
        </constraints>
        """
    }

    @Test func insetsFollowTheDeviceTheToolsAndTheScreen() throws {
        // Notched phones: 44 up to Xcode 13, then per model (the 5.8" 50); Xcode 26 stores twice the insets.
        let cases: [(device: String, tools: String, top: Double, bottom: Double)] = [
            ("retina5_9", "14460", 44, 34), ("retina5_9", "21701", 50, 34), ("retina6_1", "19529", 44, 34),
            ("retina6_1", "22155", 48, 34), ("retina6_1", "24127", 96, 68), ("retina4_7", "21701", 20, 0),
            ("ipad12_9rounded", "17506", 24, 20),
        ]
        for c in cases {
            guard let size = DeviceMetrics.screenSizes[c.device] else { Issue.record("no size for \(c.device)"); continue }
            let xml = IB.storyboard(device: c.device, tools: c.tools, rootSize: size,
                                    body: Self.boxFillingTheSafeArea(y: c.top, width: size.0, height: size.1 - c.top - c.bottom))
            let screen = try IB.only(xml)
            #expect(try IB.misses(screen.layout).isEmpty, "\(c.device) saved by \(c.tools)")
        }
        // A freeform controller's screen is its freeform size, not the device's: a root 54 short of it
        // loses 54 of its 20 + 44 top inset (the height it lacks comes off the top first).
        let freeform = "<size key=\"freeformSize\" width=\"375\" height=\"800\"/>"
            + "<simulatedNavigationBarMetrics key=\"simulatedTopBarMetrics\" prompted=\"NO\"/>"
        let tall = try IB.only(IB.storyboard(tools: "14460", controllerExtras: freeform, rootSize: (375, 746),
                                             body: Self.boxFillingTheSafeArea(y: 10, width: 375, height: 736)))
        #expect(try IB.misses(tall.layout).isEmpty)
    }

    @Test func sizeClassVariationsBecomeTraits() throws {
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="box">
                    <rect key="frame" x="0" y="0" width="100" height="100"/>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="v1"/>
                <constraint firstItem="box" firstAttribute="top" secondItem="root" secondAttribute="top" id="v2"/>
                <constraint firstItem="box" firstAttribute="width" constant="100" id="v3">
                    <variation key="widthClass=regular" constant="300"/>
                </constraint>
                <constraint firstItem="box" firstAttribute="height" constant="100" id="v4"/>
                <constraint firstItem="box" firstAttribute="height" constant="50" id="v5"/>
            </constraints>
            <variation key="default">
                <mask key="constraints"><exclude reference="v5"/></mask>
            </variation>
            <variation key="heightClass=compact">
                <mask key="constraints"><exclude reference="v4"/><include reference="v5"/></mask>
            </variation>
            """), naming: .id)
        let lines = Set(screen.layout.constraints.map(LayoutPrinter.line(for:)))
        #expect(lines.contains("when widthCompact: box.width = 100 # v3"), "\(lines)")
        #expect(lines.contains("when widthRegular: box.width = 300 # v3"), "\(lines)")
        #expect(lines.contains("when widthCompact, heightCompact: box.height = 50 # v5"), "\(lines)")
        #expect(screen.layout.containerTraits == ["widthCompact", "heightRegular"])
        #expect(screen.layout.variants.map(\.name) == ["phoneLandscape", "pad", "largePhoneLandscape"])
        let landscape = try GLPKLayoutSolver().load(screen.layout, variant: "phoneLandscape")
        #expect(landscape.frames[landscape.viewNames.firstIndex(of: "box") ?? 0].height == 50)
    }

    @Test func xibTopLevelViewsAndCellsAreScreens() throws {
        let result = try IB.load(IB.xib("""
            <tableViewCell contentMode="scaleToFill" reuseIdentifier="ItemCell" id="cell">
                <rect key="frame" x="0.0" y="0.0" width="375" height="60"/>
                <autoresizingMask key="autoresizingMask"/>
                <tableViewCellContentView key="contentView" opaque="NO" id="content">
                    <rect key="frame" x="0.0" y="0.0" width="375" height="59.5"/>
                    <autoresizingMask key="autoresizingMask"/>
                    <subviews>
                        <label opaque="NO" text="Name" translatesAutoresizingMaskIntoConstraints="NO" id="name">
                            <rect key="frame" x="16" y="11" width="343" height="37.5"/>
                        </label>
                    </subviews>
                    <constraints>
                        <constraint firstItem="name" firstAttribute="leading" secondItem="content" secondAttribute="leadingMargin" id="n1"/>
                        <constraint firstAttribute="trailingMargin" secondItem="name" secondAttribute="trailing" id="n2"/>
                        <constraint firstItem="name" firstAttribute="top" secondItem="content" secondAttribute="topMargin" id="n3"/>
                        <constraint firstAttribute="bottomMargin" secondItem="name" secondAttribute="bottom" id="n4"/>
                    </constraints>
                </tableViewCellContentView>
            </tableViewCell>
            """), file: "ItemCell.xib")
        #expect(result.screens.map(\.name) == ["ItemCell-ItemCell"])
        let layout = try #require(result.screens.first).layout
        #expect(try IB.misses(layout).isEmpty)  // a cell's content view: margins 11 / 16
    }

    @Test func hostileNamesStayNames() throws {
        let result = try IB.load(IB.storyboard(body: """
            <subviews>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="../../etc/x" userLabel="../../../tmp/pwned\u{0}">
                    <rect key="frame" x="0" y="0" width="10" height="10"/>
                    <constraints><constraint firstAttribute="width" constant="10" id="w"/></constraints>
                </view>
            </subviews>
            """).replacingOccurrences(of: "LoginViewController", with: "../../../../tmp/evil"), naming: .id)
        let screen = try #require(result.screens.first)
        #expect(!screen.name.contains("/") && !screen.name.contains(".."), "\(screen.name)")
        #expect(screen.layout.views.allSatisfy { isValidName($0.name) }, "\(screen.layout.views.map(\.name))")
        #expect(fileSafeName(String(repeating: "a/", count: 6_000)).count <= 80)
        #expect(fileSafeName("..") == "screen")
        #expect(identifierName("12-ab-C3", camelCase: false) == "v12_ab_C3")
    }

    @Test func unsafeOrForeignInputIsALocatedError() throws {
        func error(_ text: String, file: String = "bad.storyboard", options: ImportOptions = ImportOptions()) -> ImportError? {
            do {
                _ = try InterfaceBuilderImporter.importDocument(Array(text.utf8), fileName: file, options: options)
                return nil
            } catch {
                return error
            }
        }
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>
            <document>&lol2;</document>
            """
        #expect(error(bomb)?.description.contains("bad.storyboard:2:1: error: a <!DOCTYPE> is not accepted") == true)
        let external = "<document><label text=\"&xxe;\"/></document>"
        #expect(error(external)?.description.contains("undefined entity '&xxe;'") == true)
        let deep = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        #expect(error(deep)?.description.contains("nested more than 256 deep") == true)
        #expect(error("<document>", options: ImportOptions(maximumBytes: 4))?.description.contains("more than the importer's limit of 4") == true)
        #expect(error("<document>\n  <scenes>\n</document>")?.description == "bad.storyboard:3:1: error: end tag </document> does not match <scenes>")
        let mac = "<document type=\"com.apple.InterfaceBuilder3.Cocoa.XIB\" targetRuntime=\"MacOSX.Cocoa\"></document>"
        #expect(error(mac)?.description.contains("macOS (AppKit) document: not supported") == true)
        #expect(error("<html/>")?.description.contains("not an Interface Builder document") == true)
    }

    @Test func unknownPiecesAreLocatedWarningsAndTheRestImports() throws {
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="v">
                    <rect key="frame" x="0" y="0" width="10" height="10"/>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="v" firstAttribute="width" constant="10" id="ok"/>
                <constraint firstItem="v" firstAttribute="height" secondItem="nowhere" secondAttribute="height" id="dangling"/>
                <constraint firstItem="v" firstAttribute="sideways" constant="1" id="odd"/>
                <constraint firstItem="v" firstAttribute="leading" secondItem="root" secondAttribute="width" id="illegal"/>
            </constraints>
            """), naming: .id)
        let messages = screen.warnings.map(\.description)
        #expect(messages.contains { $0.hasPrefix("test.storyboard:") && $0.contains("'nowhere', which is not in this screen") }, "\(messages)")
        #expect(messages.contains { $0.contains("attribute 'sideways' is not supported") }, "\(messages)")
        #expect(messages.contains { $0.contains("constraint left out") }, "\(messages)")
        #expect(screen.layout.constraints.map(\.identifier) == ["ok"])
    }

    @Test func observedExpectationsRoundTripThroughTheFormat() throws {
        let text = "container 100 x 100\nviews a\na.width = 10\nexpect a = 1 2 10 4 observed xcode within 0.5\nexpect a = 0 0 10 0\n"
        let layout = try #require(LayoutParser.parse(text).layout)
        #expect(layout.observations(for: nil).count == 1)
        #expect(layout.expectations(for: nil).count == 1)
        let printed = LayoutPrinter.print(layout)
        #expect(printed.contains("expect a = 1 2 10 4 observed xcode within 0.5"))
        #expect(LayoutParser.parse(printed).layout == layout)
        let bad = LayoutParser.parse("container 10 x 10\nviews a\nexpect a = 0 0 1 1 within -1\n")
        #expect(bad.layout == nil)
    }
}
