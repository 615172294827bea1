import GLPKReference
@testable import IBImport
import LayoutModel
import Testing

/// What UIKit and Interface Builder leave out of the file, one rule a test:
/// each small file is laid out as Xcode stores such screens, and would miss
/// its stored frames without the rule.
struct ImplicitRulesTests {
    /// A stack view with a `spacing`-less standard spacing and its own margins, two buttons inside.
    static func stack(extraAttributes: String, margins: String) -> String {
        IB.storyboard(body: """
            <subviews>
                <stackView opaque="NO" contentMode="scaleToFill" \(extraAttributes) translatesAutoresizingMaskIntoConstraints="NO" id="stack">
                    <rect key="frame" x="20" y="100" width="335" height="60"/>
                    <subviews>
                        <button opaque="NO" contentMode="scaleToFill" id="b1"><rect key="frame" x="16" y="8" width="100" height="44"/></button>
                        <button opaque="NO" contentMode="scaleToFill" id="b2"><rect key="frame" x="124" y="8" width="195" height="44"/></button>
                    </subviews>
                    <constraints>
                        <constraint firstItem="b1" firstAttribute="width" constant="100" id="w1"/>
                    </constraints>
                    \(margins)
                </stackView>
            </subviews>
            <constraints>
                <constraint firstItem="stack" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="k1"/>
                <constraint firstAttribute="trailing" secondItem="stack" secondAttribute="trailing" constant="20" id="k2"/>
                <constraint firstItem="stack" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="k3"/>
            </constraints>
            """)
    }

    @Test func stackWithItsOwnMarginsArrangesInsideThemWithStandardSpacing() throws {
        let margins = #"<directionalEdgeInsets key="directionalLayoutMargins" top="8" leading="16" bottom="8" trailing="16"/>"#
        let screen = try IB.only(Self.stack(extraAttributes: #"spacingType="standard""#, margins: margins), naming: .id)
        #expect(try IB.misses(screen.layout).isEmpty)
        // The stack's height comes from its buttons: 8 + 44 + 8 (the buttons' stored height is their content size,
        // although both their edges are pinned to the stack, whose own height is not fixed).
        let frames = try IB.solve(screen.layout)
        #expect(frames["stack"]?.height == 60)
        // Said explicitly, the flag wins: no margins, the buttons at the stack's edges.
        let off = try IB.only(Self.stack(extraAttributes: #"spacingType="standard" layoutMarginsRelativeArrangement="NO""#,
                                         margins: margins), naming: .id)
        #expect(try !IB.misses(off.layout).isEmpty)
    }

    @Test func placeholderConstraintsAreKeptBecauseTheFramesWereComputedWithThem() throws {
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="box">
                    <rect key="frame" x="20" y="100" width="335" height="50"/>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="k1"/>
                <constraint firstAttribute="trailing" secondItem="box" secondAttribute="trailing" constant="20" id="k2"/>
                <constraint firstItem="box" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="k3"/>
                <constraint firstItem="box" firstAttribute="height" constant="50" placeholder="YES" id="k4"/>
            </constraints>
            """), naming: .id)
        #expect(screen.layout.constraints.contains { $0.identifier == "k4" })
        #expect(try IB.misses(screen.layout).isEmpty)
        #expect(screen.header.contains { $0.contains("placeholder constraints") })
    }

    @Test func controlsAreConstrainedByTheirAlignmentRectangles() throws {
        // A slider pinned to the root's edges at 0 is stored 2 outside them; a switch 2 wider than its place.
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <slider opaque="NO" contentMode="scaleToFill" value="0.5" minValue="0.0" maxValue="1" translatesAutoresizingMaskIntoConstraints="NO" id="slider">
                    <rect key="frame" x="-2" y="100" width="379" height="31"/>
                </slider>
                <switch opaque="NO" contentMode="scaleToFill" on="YES" translatesAutoresizingMaskIntoConstraints="NO" id="toggle">
                    <rect key="frame" x="306" y="200" width="51" height="31"/>
                </switch>
            </subviews>
            <constraints>
                <constraint firstItem="slider" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="s1"/>
                <constraint firstAttribute="trailing" secondItem="slider" secondAttribute="trailing" id="s2"/>
                <constraint firstItem="slider" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="s3"/>
                <constraint firstAttribute="trailing" secondItem="toggle" secondAttribute="trailing" constant="20" id="t1"/>
                <constraint firstItem="toggle" firstAttribute="top" secondItem="root" secondAttribute="top" constant="200" id="t2"/>
            </constraints>
            """), naming: .id)
        #expect(try IB.misses(screen.layout).isEmpty)
        let frames = try IB.solve(screen.layout)
        #expect(frames["slider"] == Frame(x: 0, y: 100, width: 375, height: 30))
        #expect(frames["toggle"] == Frame(x: 306, y: 200, width: 49, height: 31))
    }

    @Test func edgesToAScrollViewWithAContentGuideAreTheContentsEdges() throws {
        // The label is pinned to the scroll view's edges (leading/trailing 5) and its width to the frame less 10:
        // satisfiable only if the edges are the content area's, as UIKit reads them.
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <scrollView clipsSubviews="YES" multipleTouchEnabled="YES" contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="scroll">
                    <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                    <subviews>
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="page">
                            <rect key="frame" x="5" y="0.0" width="365" height="900"/>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="page" firstAttribute="leading" secondItem="scroll" secondAttribute="leading" constant="5" id="p1"/>
                        <constraint firstAttribute="trailing" secondItem="page" secondAttribute="trailing" constant="5" id="p2"/>
                        <constraint firstItem="page" firstAttribute="top" secondItem="scroll" secondAttribute="top" id="p3"/>
                        <constraint firstAttribute="bottom" secondItem="page" secondAttribute="bottom" id="p4"/>
                        <constraint firstItem="page" firstAttribute="height" constant="900" id="p5"/>
                    </constraints>
                    <viewLayoutGuide key="contentLayoutGuide" id="content"/>
                    <viewLayoutGuide key="frameLayoutGuide" id="frameGuide"/>
                </scrollView>
            </subviews>
            <constraints>
                <constraint firstItem="scroll" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="r1"/>
                <constraint firstItem="scroll" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="r2"/>
                <constraint firstItem="scroll" firstAttribute="top" secondItem="root" secondAttribute="top" id="r3"/>
                <constraint firstItem="scroll" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="r4"/>
                <constraint firstItem="page" firstAttribute="width" secondItem="scroll" secondAttribute="width" constant="-10" id="r5"/>
            </constraints>
            """), naming: .id)
        #expect(try IB.misses(screen.layout).isEmpty)
        #expect(screen.layout.constraints.contains { $0.identifier == "p4" && $0.first.item == "content" })
    }

    @Test func aXibTopLevelViewHasAControllerRootsMargins() throws {
        // 16 on the sides of a 375-wide view, as a controller's root (not UIView's default 8).
        let screen = try IB.only(IB.xib("""
            <view contentMode="scaleToFill" id="card">
                <rect key="frame" x="0.0" y="0.0" width="375" height="100"/>
                <subviews>
                    <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="inner">
                        <rect key="frame" x="16" y="8" width="343" height="84"/>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="inner" firstAttribute="leading" secondItem="card" secondAttribute="leadingMargin" id="i1"/>
                    <constraint firstAttribute="trailingMargin" secondItem="inner" secondAttribute="trailing" id="i2"/>
                    <constraint firstItem="inner" firstAttribute="top" secondItem="card" secondAttribute="top" constant="8" id="i3"/>
                    <constraint firstAttribute="bottom" secondItem="inner" secondAttribute="bottom" constant="8" id="i4"/>
                </constraints>
            </view>
            """), naming: .id)
        #expect(try IB.misses(screen.layout).isEmpty)
    }

    /// A freeform top-level view pinned 10 inside its margins, stored as the given build lays it out.
    static func freeformCard(tools: String, storedTop: Double) -> String {
        IB.xib("""
            <view contentMode="scaleToFill" id="card">
                <rect key="frame" x="0.0" y="0.0" width="600" height="300"/>
                <subviews>
                    <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="inner">
                        <rect key="frame" x="30" y="\(storedTop)" width="540" height="\(290 - storedTop)"/>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="inner" firstAttribute="leading" secondItem="card" secondAttribute="leadingMargin" constant="10" id="f1"/>
                    <constraint firstAttribute="trailingMargin" secondItem="inner" secondAttribute="trailing" constant="10" id="f2"/>
                    <constraint firstItem="inner" firstAttribute="top" secondItem="card" secondAttribute="topMargin" constant="10" id="f3"/>
                    <constraint firstAttribute="bottomMargin" secondItem="inner" secondAttribute="bottom" constant="10" id="f4"/>
                </constraints>
                <freeformSimulatedSizeMetrics key="simulatedDestinationMetrics"/>
            </view>
            """, tools: tools)
    }

    @Test func aFreeformXibViewHadNoStatusBarBeforeXcode10_1() throws {
        // Xcode 9.3 (14113) drew a freeform view on no screen: top margin 0.
        let old = try IB.only(Self.freeformCard(tools: "14113", storedTop: 10), naming: .id)
        #expect(try IB.misses(old.layout).isEmpty)
        // Xcode 10.1 (14460) puts it under the device's 20-point status bar.
        let new = try IB.only(Self.freeformCard(tools: "14460.31", storedTop: 30), naming: .id)
        #expect(try IB.misses(new.layout).isEmpty)
        // Each rule is needed: the old file read with the new rule misses.
        let swapped = try IB.only(Self.freeformCard(tools: "14460.31", storedTop: 10), naming: .id)
        #expect(try !IB.misses(swapped.layout).isEmpty)
    }

    @Test func aRootShortByItsTabBarKeepsItsStatusBar() throws {
        // 618 of 667 points tall over a tab bar: the safe area still starts 20 down, and ends at the root's bottom.
        let screen = try IB.only(IB.storyboard(tools: "14460.31", controllerExtras: """
            <simulatedTabBarMetrics key="simulatedBottomBarMetrics"/>
            """, rootSize: (375, 618), body: """
            <subviews>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="box">
                    <rect key="frame" x="0.0" y="50" width="375" height="568"/>
                </view>
            </subviews>
            <viewLayoutGuide key="safeArea" id="safe"/>
            <constraints>
                <constraint firstItem="box" firstAttribute="top" secondItem="safe" secondAttribute="top" constant="30" id="t1"/>
                <constraint firstItem="safe" firstAttribute="bottom" secondItem="box" secondAttribute="bottom" id="t2"/>
                <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="t3"/>
                <constraint firstAttribute="trailing" secondItem="box" secondAttribute="trailing" id="t4"/>
            </constraints>
            """), naming: .id)
        #expect(try IB.misses(screen.layout).isEmpty)
    }

    @Test func aSheetShortOfItsScreenKeepsItsHomeIndicatorInset() throws {
        // A page sheet on a notched phone (Xcode 11, 758 of 812 points tall):
        // it lacks the sensor housing and the sheet's gap at its top, so the
        // top inset is 0, and its bottom is the screen's, 34 above the home
        // indicator; a button 20 above the bottom guide is stored at 758 - 34 - 20 - 34.
        let screen = try IB.only(IB.storyboard(device: "retina5_9", tools: "14868", controllerExtras: "", rootSize: (375, 758), body: """
            <subviews>
                <button opaque="NO" contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="button">
                    <rect key="frame" x="16" y="670" width="343" height="34"/>
                    <constraints>
                        <constraint firstAttribute="height" constant="34" id="h1"/>
                    </constraints>
                </button>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="header">
                    <rect key="frame" x="0.0" y="0.0" width="375" height="50"/>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="bottomGuide" firstAttribute="top" secondItem="button" secondAttribute="bottom" constant="20" id="b1"/>
                <constraint firstItem="button" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="b2"/>
                <constraint firstAttribute="trailing" secondItem="button" secondAttribute="trailing" constant="16" id="b3"/>
                <constraint firstItem="header" firstAttribute="top" secondItem="topGuide" secondAttribute="bottom" id="b4"/>
                <constraint firstItem="header" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="b5"/>
                <constraint firstAttribute="trailing" secondItem="header" secondAttribute="trailing" id="b6"/>
                <constraint firstItem="header" firstAttribute="height" constant="50" id="b7"/>
            </constraints>
            """).replacingOccurrences(of: "<view key=\"view\"", with: """
            <layoutGuides>
                <viewControllerLayoutGuide type="top" id="topGuide"/>
                <viewControllerLayoutGuide type="bottom" id="bottomGuide"/>
            </layoutGuides>
            <view key="view"
            """), naming: .id)
        #expect(try IB.misses(screen.layout).isEmpty)
    }

    @Test func anArrangedViewNothingSizesAcrossTheStackKeepsItsDrawnSize() throws {
        // A centred horizontal stack of a 40-point-high box and a line that
        // nothing sizes across the axis: UIKit's ambiguity suppression
        // would shrink the line's height to 0 at run time, but Interface
        // Builder's canvas stores it at the 24 points it was drawn at.
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <stackView opaque="NO" contentMode="scaleToFill" alignment="center" spacing="8" translatesAutoresizingMaskIntoConstraints="NO" id="stack">
                    <rect key="frame" x="20" y="100" width="200" height="40"/>
                    <subviews>
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="box">
                            <rect key="frame" x="0.0" y="0.0" width="40" height="40"/>
                            <constraints>
                                <constraint firstAttribute="width" constant="40" id="w1"/>
                                <constraint firstAttribute="height" constant="40" id="h1"/>
                            </constraints>
                        </view>
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="line">
                            <rect key="frame" x="48" y="8" width="152" height="24"/>
                        </view>
                    </subviews>
                </stackView>
            </subviews>
            <constraints>
                <constraint firstItem="stack" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="k1"/>
                <constraint firstItem="stack" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="k2"/>
                <constraint firstItem="stack" firstAttribute="width" constant="200" id="k3"/>
            </constraints>
            """), naming: .id)
        #expect(try IB.misses(screen.layout).isEmpty)
        #expect(try IB.solve(screen.layout)["line"]?.height == 24)
    }

    @Test func aNarrowTableCellHas15PointSideMargins() throws {
        // A 320-wide cell (Xcode 10.1) pinned to its content view's margins is stored 15 in from each side.
        let result = try IB.load(IB.xib("""
            <tableViewCell contentMode="scaleToFill" reuseIdentifier="Narrow" id="cell">
                <rect key="frame" x="0.0" y="0.0" width="320" height="60"/>
                <autoresizingMask key="autoresizingMask"/>
                <tableViewCellContentView key="contentView" opaque="NO" id="content">
                    <rect key="frame" x="0.0" y="0.0" width="320" height="59.5"/>
                    <autoresizingMask key="autoresizingMask"/>
                    <subviews>
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="box">
                            <rect key="frame" x="15" y="11" width="290" height="37.5"/>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="box" firstAttribute="leading" secondItem="content" secondAttribute="leadingMargin" id="n1"/>
                        <constraint firstAttribute="trailingMargin" secondItem="box" secondAttribute="trailing" id="n2"/>
                        <constraint firstItem="box" firstAttribute="top" secondItem="content" secondAttribute="topMargin" id="n3"/>
                        <constraint firstAttribute="bottomMargin" secondItem="box" secondAttribute="bottom" id="n4"/>
                    </constraints>
                </tableViewCellContentView>
            </tableViewCell>
            """, tools: "14460.31"), naming: .id, file: "Narrow.xib")
        let layout = try #require(result.screens.first).layout
        #expect(try IB.misses(layout).isEmpty)
    }

    /// A 375-wide cell whose box is pinned to its content view's margins, stored `inset` points from the top and bottom.
    static func cell(tools: String, inset: Double) -> String {
        IB.xib("""
            <tableViewCell contentMode="scaleToFill" reuseIdentifier="Row" id="cell">
                <rect key="frame" x="0.0" y="0.0" width="375" height="60"/>
                <autoresizingMask key="autoresizingMask"/>
                <tableViewCellContentView key="contentView" opaque="NO" id="content">
                    <rect key="frame" x="0.0" y="0.0" width="375" height="60"/>
                    <autoresizingMask key="autoresizingMask"/>
                    <subviews>
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="box">
                            <rect key="frame" x="16" y="\(inset)" width="343" height="\(60 - 2 * inset)"/>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="box" firstAttribute="leading" secondItem="content" secondAttribute="leadingMargin" id="n1"/>
                        <constraint firstAttribute="trailingMargin" secondItem="box" secondAttribute="trailing" id="n2"/>
                        <constraint firstItem="box" firstAttribute="top" secondItem="content" secondAttribute="topMargin" id="n3"/>
                        <constraint firstAttribute="bottomMargin" secondItem="box" secondAttribute="bottom" id="n4"/>
                    </constraints>
                </tableViewCellContentView>
            </tableViewCell>
            """, tools: tools)
    }

    @Test func cellsSavedByXcode26Have15PointTopAndBottomMargins() throws {
        func misses(tools: String, inset: Double) throws -> [String] {
            let result = try IB.load(Self.cell(tools: tools, inset: inset), naming: .id, file: "Row.xib")
            return try IB.misses(try #require(result.screens.first).layout)
        }
        // Xcode 16 (23504) stores the box 11 from the top and bottom, Xcode 26 (24127) 15.
        #expect(try misses(tools: "23504", inset: 11).isEmpty)
        #expect(try misses(tools: "24127", inset: 15).isEmpty)
        // Each rule is needed: the other version's margins miss.
        #expect(try !misses(tools: "24127", inset: 11).isEmpty)
        #expect(try !misses(tools: "23504", inset: 15).isEmpty)
    }

    @Test func aSelfSizingCellFlaggedAmbiguousFitsItsContent() throws {
        // The canvas kept the cell 44 tall and flagged its content view; the
        // views are stored where a content view fitted to them (81) puts them.
        func misses(rowHeight: String, flag: String) throws -> [String] {
            let result = try IB.load(Self.selfSizingTable(rowHeight: rowHeight, flag: flag), naming: .id)
            let cell = try #require(result.screens.first { $0.name.contains("Row") })
            return try IB.misses(cell.layout)
        }
        #expect(try misses(rowHeight: "-1", flag: #"ambiguous="YES""#).isEmpty)
        // A fixed row height keeps the stored 44, and so does a content view IB did not flag.
        #expect(try !misses(rowHeight: "44", flag: #"ambiguous="YES""#).isEmpty)
        #expect(try !misses(rowHeight: "-1", flag: "").isEmpty)
    }

    /// A table of one 44-point cell whose content (a label and a 30-point bar, 11 from each edge) needs 81.
    static func selfSizingTable(rowHeight: String, flag: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="17156" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES" useSafeAreas="YES" colorMatched="YES" initialViewController="tvc">
            <device id="retina6_1" orientation="portrait" appearance="light"/>
            <scenes>
                <scene sceneID="s1">
                    <objects>
                        <tableViewController id="tvc" sceneMemberID="viewController">
                            <tableView key="view" clipsSubviews="YES" contentMode="scaleToFill" dataMode="static" style="plain" rowHeight="\(rowHeight)" estimatedRowHeight="-1" id="table">
                                <rect key="frame" x="0.0" y="0.0" width="414" height="896"/>
                                <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                                <sections>
                                    <tableViewSection id="sec">
                                        <cells>
                                            <tableViewCell contentMode="scaleToFill" reuseIdentifier="Row" id="cell">
                                                <rect key="frame" x="0.0" y="28" width="414" height="44"/>
                                                <autoresizingMask key="autoresizingMask"/>
                                                <tableViewCellContentView key="contentView" opaque="NO" contentMode="center" \(flag) id="content">
                                                    <rect key="frame" x="0.0" y="0.0" width="414" height="44"/>
                                                    <autoresizingMask key="autoresizingMask"/>
                                                    <subviews>
                                                        <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Distance" translatesAutoresizingMaskIntoConstraints="NO" id="title">
                                                            <rect key="frame" x="20" y="11" width="131" height="21"/>
                                                            <fontDescription key="fontDescription" type="system" pointSize="17"/>
                                                        </label>
                                                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="bar">
                                                            <rect key="frame" x="20" y="40" width="374" height="30"/>
                                                        </view>
                                                    </subviews>
                                                    <constraints>
                                                        <constraint firstItem="title" firstAttribute="leading" secondItem="content" secondAttribute="leading" constant="20" id="c1"/>
                                                        <constraint firstItem="title" firstAttribute="top" secondItem="content" secondAttribute="top" constant="11" id="c2"/>
                                                        <constraint firstItem="bar" firstAttribute="leading" secondItem="title" secondAttribute="leading" id="c3"/>
                                                        <constraint firstAttribute="trailing" secondItem="bar" secondAttribute="trailing" constant="20" id="c4"/>
                                                        <constraint firstItem="bar" firstAttribute="top" secondItem="title" secondAttribute="bottom" constant="8" id="c5"/>
                                                        <constraint firstAttribute="bottom" secondItem="bar" secondAttribute="bottom" constant="11" id="c6"/>
                                                        <constraint firstItem="bar" firstAttribute="height" constant="30" id="c7"/>
                                                    </constraints>
                                                </tableViewCellContentView>
                                            </tableViewCell>
                                        </cells>
                                    </tableViewSection>
                                </sections>
                            </tableView>
                        </tableViewController>
                    </objects>
                </scene>
            </scenes>
        </document>
        """
    }

    @Test func anEmptyStackViewKeepsItsDrawnSize() throws {
        // A menu 200 wide at priority 750 holds an empty stack drawn 300
        // wide: Xcode stores the menu 300 wide (duckduckgo's browsing menu).
        func screen(_ element: String) throws -> ImportedScreen {
            try IB.only(IB.storyboard(body: """
                <subviews>
                    <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="menu">
                        <rect key="frame" x="30" y="100" width="300" height="50"/>
                        <subviews>
                            <\(element) opaque="NO" contentMode="scaleToFill" spacing="12" translatesAutoresizingMaskIntoConstraints="NO" id="row">
                                <rect key="frame" x="0.0" y="0.0" width="300" height="50"/>
                            </\(element)>
                        </subviews>
                        <constraints>
                            <constraint firstItem="row" firstAttribute="leading" secondItem="menu" secondAttribute="leading" id="r1"/>
                            <constraint firstAttribute="trailing" secondItem="row" secondAttribute="trailing" id="r2"/>
                            <constraint firstItem="row" firstAttribute="top" secondItem="menu" secondAttribute="top" id="r3"/>
                            <constraint firstAttribute="bottom" secondItem="row" secondAttribute="bottom" id="r4"/>
                            <constraint firstAttribute="width" constant="200" priority="750" id="m1"/>
                        </constraints>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="menu" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="30" id="k1"/>
                    <constraint firstItem="menu" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="k2"/>
                </constraints>
                """), naming: .id)
        }
        let stack = try screen("stackView")
        #expect(try IB.solve(stack.layout)["menu"] == Frame(x: 30, y: 100, width: 300, height: 50))
        #expect(try IB.misses(stack.layout).isEmpty)
        // A plain view in its place has no size of its own: the 750 width decides.
        let plain = try screen("view")
        #expect(try IB.solve(plain.layout)["menu"]?.width == 200)
    }

    @Test func fixedFrameAndUnconstrainedViewsAreInputsNotOracles() throws {
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <view contentMode="scaleToFill" fixedFrame="YES" translatesAutoresizingMaskIntoConstraints="NO" id="pinned">
                    <rect key="frame" x="30" y="40" width="100" height="50"/>
                </view>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="loose">
                    <rect key="frame" x="30" y="140" width="100" height="50"/>
                </view>
                <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="held">
                    <rect key="frame" x="30" y="240" width="100" height="50"/>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="held" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="30" id="h1"/>
                <constraint firstItem="held" firstAttribute="top" secondItem="root" secondAttribute="top" constant="240" id="h2"/>
                <constraint firstItem="held" firstAttribute="width" constant="100" id="h3"/>
                <constraint firstItem="held" firstAttribute="height" constant="50" id="h4"/>
            </constraints>
            """), naming: .id)
        // Laid out at their stored frames (IB makes frame constraints for them at build time) ...
        let frames = try IB.solve(screen.layout)
        #expect(frames["pinned"] == Frame(x: 30, y: 40, width: 100, height: 50))
        #expect(frames["loose"] == Frame(x: 30, y: 140, width: 100, height: 50))
        // ... so their frames are inputs: only the constrained view is judged against Xcode.
        #expect(screen.observedViews == 1)
        #expect(try IB.misses(screen.layout).isEmpty)
    }

    @Test func aStoppedIndicatorThatHidesWhenStoppedIsStillArranged() throws {
        // IB's canvas arranges the indicator: the label below it is stored after its 20 points and the spacing.
        let screen = try IB.only(IB.storyboard(body: """
            <subviews>
                <stackView opaque="NO" contentMode="scaleToFill" axis="vertical" spacing="10" translatesAutoresizingMaskIntoConstraints="NO" id="stack">
                    <rect key="frame" x="20" y="100" width="335" height="90"/>
                    <subviews>
                        <view contentMode="scaleToFill" id="top"><rect key="frame" x="0.0" y="0.0" width="335" height="40"/>
                            <constraints><constraint firstAttribute="height" constant="40" id="t1"/></constraints></view>
                        <activityIndicatorView hidden="YES" opaque="NO" contentMode="scaleToFill" hidesWhenStopped="YES" style="gray" id="spinner">
                            <rect key="frame" x="0.0" y="50" width="335" height="20"/>
                        </activityIndicatorView>
                        <view contentMode="scaleToFill" id="bottom"><rect key="frame" x="0.0" y="80" width="335" height="10"/>
                            <constraints><constraint firstAttribute="height" constant="10" id="b1"/></constraints></view>
                    </subviews>
                </stackView>
            </subviews>
            <constraints>
                <constraint firstItem="stack" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="k1"/>
                <constraint firstAttribute="trailing" secondItem="stack" secondAttribute="trailing" constant="20" id="k2"/>
                <constraint firstItem="stack" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="k3"/>
            </constraints>
            """), naming: .id)
        #expect(try IB.misses(screen.layout).isEmpty)
        #expect(try IB.solve(screen.layout)["bottom"]?.y == 180)
    }
}
