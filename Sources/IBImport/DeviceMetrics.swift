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

    /// Portrait top inset of the notched phones by screen height (points):
    /// X/XS/11 Pro 44, XR/11 48 (Xcode's `retina6_1` is the 11), 12-14 and
    /// Plus 47, 14 Pro-16 59, 16 Pro and Pro Max 62.
    static func notchTop(height: Double, device: String?) -> Double? {
        if device == "retina6_1" { return 48 }
        switch height {
        case 812, 896: return 44
        case 844, 926: return 47
        case 852, 932: return 59
        case 874, 956: return 62
        default: return nil
        }
    }

    /// Portrait screen sizes of Xcode's device ids (points).
    static let screenSizes: [String: (Double, Double)] = [
        "retina3_5": (320, 480), "retina4_0": (320, 568), "retina4_7": (375, 667), "retina5_5": (414, 736),
        "retina5_9": (375, 812), "retina6_1": (414, 896), "retina6_5": (414, 896), "retina6_12": (390, 844),
        "retina6_72": (428, 926), "retina6_0": (393, 852), "retina6_3": (402, 874), "retina6_7": (430, 932),
        "retina6_9": (440, 956), "ipad9_7": (768, 1024), "ipad10_2": (810, 1080), "ipad10_5": (834, 1112),
        "ipad11": (834, 1194), "ipad12_9": (1024, 1366), "ipad12_9rounded": (1024, 1366), "ipad10_9rounded": (820, 1180),
    ]

    /// iPads with rounded corners (no home button): 24 top, 20 bottom.
    static let roundedPads: Set<String> = ["ipad11", "ipad12_9rounded", "ipad10_9rounded", "ipad8_3", "ipad11_0rounded",
                                           "ipad13_0rounded"]

    /// The metrics for a screen of that size (the root's stored size, or the device's).
    static func forScreen(width: Double, height: Double, device: String?) -> DeviceMetrics {
        let portrait = height >= width
        let long = max(width, height), short = min(width, height)
        let isPad = short >= 700
        if isPad {
            let rounded = device.map { roundedPads.contains($0) } ?? false
            let top = rounded ? 24.0 : 20.0, bottom = rounded ? 20.0 : 0
            return DeviceMetrics(screen: EdgeInsets(top: top, left: 0, bottom: bottom, right: 0), size: (width, height))
        }
        if let notch = notchTop(height: long, device: device) {
            return portrait
                ? DeviceMetrics(screen: EdgeInsets(top: notch, left: 0, bottom: 34, right: 0), size: (width, height))
                : DeviceMetrics(screen: EdgeInsets(top: 0, left: notch, bottom: 21, right: notch), size: (width, height))
        }
        // Phones with a home button: a 20-point status bar in portrait, none in landscape.
        return DeviceMetrics(screen: EdgeInsets(top: portrait ? 20 : 0, left: 0, bottom: 0, right: 0), size: (width, height))
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
    /// - Parameter toolsMajor: the file's `toolsVersion` before the dot (24 and up: saved by Xcode 26).
    static func intrinsicSize(of element: XMLElement, toolsMajor: Int?) -> IntrinsicSize? {
        switch element.name {
        case "switch":
            // Xcode 26's switch is 63 x 28; earlier files were laid out with 51 x 31.
            return (toolsMajor ?? 0) >= 24 ? IntrinsicSize(width: 63, height: 28) : IntrinsicSize(width: 51, height: 31)
        case "activityIndicatorView":
            let style = element["style"] ?? "gray"
            let large = style == "large" || style == "whiteLarge"
            return large ? IntrinsicSize(width: 37, height: 37) : IntrinsicSize(width: 20, height: 20)
        case "stepper":
            return (toolsMajor ?? 0) >= 15 ? IntrinsicSize(width: 94, height: 32) : IntrinsicSize(width: 94, height: 29)
        case "progressView":
            return IntrinsicSize(width: nil, height: (toolsMajor ?? 0) >= 24 ? 6 : 4)
        default:
            return nil
        }
    }

    /// Elements whose size comes from their content (text, image, title), taken from the stored frame.
    static let contentSized: Set<String> = ["label", "button", "textField", "imageView", "segmentedControl", "slider",
                                             "pageControl", "searchBar", "datePicker", "textView"]
}
