import LayoutModel

/// What the device and the simulated bars put around a view controller's root
/// view: the safe area's insets, the legacy layout guides' lengths, the
/// system minimum layout margins. Interface Builder stores none of these;
/// they are UIKit's published values per device class.
struct DeviceMetrics: Sendable {
    /// Insets of the screen itself (status bar or sensor housing, home indicator), before any bar.
    var screen: EdgeInsets
    /// The screen's size in points, portrait or landscape as stored.
    var size: (width: Double, height: Double)

    /// Phones with a home button (a 20-point status bar, no home indicator).
    static let homeButtonPhones: Set<String> = ["retina3_5", "retina4_0", "retina4_7", "retina5_5"]

    /// Portrait screen sizes of Xcode's device ids (points).
    static let screenSizes: [String: (Double, Double)] = [
        "retina3_5": (320, 480), "retina4_0": (320, 568), "retina4_7": (375, 667), "retina5_5": (414, 736),
        "retina5_9": (375, 812), "retina6_1": (414, 896), "retina6_5": (414, 896), "retina6_12": (390, 844),
        "retina6_72": (428, 926), "retina6_0": (393, 852), "retina6_3": (402, 874), "retina6_7": (430, 932),
        "retina6_9": (440, 956), "ipad9_7": (768, 1024), "ipad10_2": (810, 1080), "ipad10_5": (834, 1112),
        "ipad11": (834, 1194), "ipad12_9": (1024, 1366), "ipad12_9rounded": (1024, 1366), "ipad10_9rounded": (820, 1180),
    ]

    /// Device ids that Xcode reuses for two phone sizes (the Pro and the plain
    /// model): the root's width tells which, and gives the screen's height.
    static let heightsByWidth: [String: [Double: Double]] = [
        "retina6_12": [390: 844, 393: 852], "retina6_7": [428: 926, 430: 932], "retina6_72": [428: 926],
    ]

    /// iPads with rounded corners (no home button): 24 top, 20 bottom.
    static let roundedPads: Set<String> = ["ipad11", "ipad12_9rounded", "ipad10_9rounded", "ipad8_3", "ipad11_0rounded",
                                           "ipad13_0rounded"]

    /// The portrait screen of a device id, with the root's width choosing
    /// between the sizes one id stands for.
    static func portraitScreen(device: String, rootWidth: Double) -> (width: Double, height: Double)? {
        if let height = heightsByWidth[device]?[rootWidth] { return (rootWidth, height) }
        return screenSizes[device].map { (width: $0.0, height: $0.1) }
    }

    /// The device a file without a `<device>` element was drawn on: a
    /// home-button phone whose screen the root fills (its height, or its
    /// bottom edge under a bar), else none.
    static func inferredDevice(root: Frame) -> String? {
        for id in ["retina3_5", "retina4_0", "retina4_7", "retina5_5"] {
            guard let size = screenSizes[id] else { continue }
            if size.0 == root.width, size.1 == root.height || size.1 == root.y + root.height { return id }
        }
        return nil
    }

    /// What the screen itself takes at the top and bottom of a view
    /// controller's root in Interface Builder's canvas (status bar or sensor
    /// housing; home indicator), before any bar.
    ///
    /// Why by `toolsBuild`: the stored frames of the sample (243 roots pinned
    /// to a safe area or a legacy guide) show that IB changed these over time.
    /// Home-button phones had a 20-point status bar except in Xcode 11 to 14.1
    /// (builds 14800 to 21599), which drew none; notched phones were 44 up to
    /// Xcode 13 (builds below 21000), then per model (the 5.8" 50, the 6.1"
    /// XR class 48, the 6.5" 44, the 6.1" 12-14 47, Pro models 59 or 62).
    /// Files saved by Xcode 26 (builds 24000 and up) store notched phones'
    /// insets at twice those values; that is what their frames were laid
    /// out with, so it is what the import uses.
    /// - Parameters:
    ///   - device: Xcode's device id, or nil when the file has none (a 20-point status bar, or none from Xcode 11 on).
    ///   - screenHeight: the portrait screen height (tells the models behind one id apart).
    static func screenInsets(device: String?, toolsBuild: Int?, landscape: Bool, screenHeight: Double) -> EdgeInsets {
        let build = toolsBuild ?? 0
        guard let device else {
            return EdgeInsets(top: build >= 14800 ? 0 : 20, left: 0, bottom: 0, right: 0)
        }
        if device.hasPrefix("ipad") {
            let rounded = roundedPads.contains(device)
            return EdgeInsets(top: rounded ? 24 : 20, left: 0, bottom: rounded ? 20 : 0, right: 0)
        }
        if homeButtonPhones.contains(device) {
            let drawsStatusBar = !landscape && !(14800..<21600).contains(build)
            return EdgeInsets(top: drawsStatusBar ? 20 : 0, left: 0, bottom: 0, right: 0)
        }
        var notch: Double
        if build < 21000 {
            notch = 44
        } else {
            switch device {
            case "retina5_9": notch = 50
            case "retina6_1": notch = 48
            case "retina6_5": notch = 44
            default:
                switch screenHeight {
                case 844, 926: notch = 47
                case 874, 956: notch = 62
                default: notch = 59
                }
            }
        }
        let scale: Double = build >= 24000 ? 2 : 1
        return landscape
            ? EdgeInsets(top: 0, left: notch * scale, bottom: 21 * scale, right: notch * scale)
            : EdgeInsets(top: notch * scale, left: 0, bottom: 34 * scale, right: 0)
    }

    /// The size class traits of a container of that size, as the `.layout` traits
    /// `widthCompact`/`widthRegular` and `heightCompact`/`heightRegular`.
    static func sizeClass(width: Double, height: Double) -> SizeClass {
        let short = min(width, height)
        if short >= 700 { return SizeClass(width: .regular, height: .regular) }  // iPads, full screen
        if height >= width { return SizeClass(width: .compact, height: .regular) }  // phones, portrait
        // Phones in landscape: the large phones (414 and wider in portrait) are regular width.
        return SizeClass(width: short >= 414 ? .regular : .compact, height: .compact)
    }

    /// UIKit's system minimum side margins of a view controller's root view: 16, or 20 when wide.
    static func rootSideMargin(width: Double) -> Double { width >= 414 ? 20 : 16 }

    /// A table cell's side margins: the root's, except 15 on a cell narrower
    /// than 375 points (the 320-point phones). Read off the sample: a 320-wide
    /// cell of Xcode 10.1 pinned to its content view's margins is stored 15
    /// in from both sides, a 375-wide cell of the same file 16; no narrower
    /// cell of the sample says otherwise.
    static func cellSideMargin(width: Double) -> Double { width < 375 ? 15 : rootSideMargin(width: width) }

    /// A table cell content view's top and bottom margins: 11, and 15 in
    /// files saved by Xcode 26 (builds 24000 and up). Read off cells pinned
    /// to their content view's top or bottom margin in files of four apps
    /// saved by Xcode 26 (plain, grouped and inset-grouped tables and xib
    /// cells, on 375- to 414-point phones: 15 every time); two of those
    /// cells, in the same files saved by Xcode 16, were 11.
    static func cellVerticalMargin(toolsBuild: Int) -> Double { toolsBuild >= 24000 ? 15 : 11 }
}

/// A size class pair.
struct SizeClass: Hashable, Sendable, Comparable {
    enum Class: String, Hashable, Sendable { case compact, regular }
    var width: Class
    var height: Class

    static let all: [SizeClass] = [
        SizeClass(width: .compact, height: .regular), SizeClass(width: .compact, height: .compact),
        SizeClass(width: .regular, height: .regular), SizeClass(width: .regular, height: .compact),
    ]

    var traits: [String] { ["width" + width.rawValue.capitalized, "height" + height.rawValue.capitalized] }

    /// The variant name and container used to solve a layout in this class when the file has size-class variations.
    var variant: (name: String, size: ContainerSize) {
        switch (width, height) {
        case (.compact, .regular): return ("phonePortrait", ContainerSize(width: 375, height: 812))
        case (.compact, .compact): return ("phoneLandscape", ContainerSize(width: 812, height: 375))
        case (.regular, .regular): return ("pad", ContainerSize(width: 1024, height: 1366))
        case (.regular, .compact): return ("largePhoneLandscape", ContainerSize(width: 896, height: 414))
        }
    }

    static func < (a: SizeClass, b: SizeClass) -> Bool {
        (all.firstIndex(of: a) ?? 0) < (all.firstIndex(of: b) ?? 0)
    }

    /// Whether a variation key (`default`, `widthClass=compact`, `heightClass=regular-widthClass=compact`) covers this class.
    /// Returns the key's specificity (0 for `default`, 1 or 2), or nil when it does not match.
    func matches(variationKey key: String) -> Int? {
        if key == "default" { return 0 }
        var specificity = 0
        for part in key.split(separator: "-") {
            let pieces = part.split(separator: "=")
            guard pieces.count == 2 else { return nil }
            let value = String(pieces[1])
            switch pieces[0] {
            case "widthClass":
                guard value == width.rawValue else { return nil }
            case "heightClass":
                guard value == height.rawValue else { return nil }
            default:
                return nil
            }
            specificity += 1
        }
        return specificity
    }
}

/// Fixed-size controls: UIKit's intrinsic sizes, which the file does not store.
enum FixedControls {
    /// Width and height by element name; nil on an axis the control leaves to constraints.
    /// - Parameters:
    ///   - toolsBuild: the build that saved the file (24000 and up: Xcode 26).
    ///   - notchedPhone: whether the file's device is a phone with a home indicator (its toolbars are 49 tall).
    static func intrinsicSize(of element: XMLElement, toolsBuild: Int?, notchedPhone: Bool) -> IntrinsicSize? {
        let toolsMajor = toolsBuild.map { $0 >= 1000 ? $0 / 1000 : $0 }
        switch element.name {
        case "navigationBar":
            return IntrinsicSize(width: nil, height: 44)
        case "toolbar":
            return IntrinsicSize(width: nil, height: notchedPhone ? 49 : 44)
        case "tabBar":
            return IntrinsicSize(width: nil, height: 49)
        case "switch":
            // Xcode 26's switch is 63 x 28; earlier files were laid out with 51 x 31.
            // Both less the alignment insets: constraints size the alignment rectangle.
            let inset = alignmentInsets["switch"] ?? EdgeInsets(all: 0)
            let frame = (toolsMajor ?? 0) >= 24 ? (width: 63.0, height: 28.0) : (width: 51.0, height: 31.0)
            return IntrinsicSize(width: frame.width - inset.left - inset.right, height: frame.height - inset.top - inset.bottom)
        case "activityIndicatorView":
            let style = element["style"] ?? "gray"
            let large = style == "large" || style == "whiteLarge"
            return large ? IntrinsicSize(width: 37, height: 37) : IntrinsicSize(width: 20, height: 20)
        case "stepper":
            return (toolsMajor ?? 0) >= 15 ? IntrinsicSize(width: 94, height: 32) : IntrinsicSize(width: 94, height: 29)
        case "progressView":
            // 2 before Xcode 11 (build 14800), 4 after, 6 in Xcode 26.
            let build = toolsBuild ?? 0
            return IntrinsicSize(width: nil, height: build >= 24000 ? 6 : (build >= 14800 ? 4 : 2))
        default:
            return nil
        }
    }

    /// Controls whose alignment rectangle is inset in their frame: constraints
    /// act on the alignment rectangle, Interface Builder stores the frame.
    /// Measured on the sample's stored frames (a slider pinned at leading 0 is
    /// stored at x = -2 and 4 wider; a switch's frame is 2 wider than the
    /// space its constraints give it; a segmented control 1 taller).
    static let alignmentInsets: [String: EdgeInsets] = [
        "slider": EdgeInsets(top: 0, left: 2, bottom: 1, right: 2),
        "switch": EdgeInsets(top: 0, left: 0, bottom: 0, right: 2),
        "segmentedControl": EdgeInsets(top: 0, left: 0, bottom: 1, right: 0),
    ]

    /// Elements whose size comes from their content (text, image, title), taken from the stored frame.
    static let contentSized: Set<String> = ["label", "button", "textField", "imageView", "segmentedControl", "slider",
                                             "pageControl", "searchBar", "datePicker", "textView", "pickerView"]
}
