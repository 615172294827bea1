import CassowaryLayout
import GLPKReference
import LayoutDSL
import LayoutModel
import LayoutSolving

/// The README's snippet ("Using the libraries": a header and a title), with
/// two equal buttons added below the title as in
/// `Corpus/content/first-screen.layout`, laid out at a container width, by
/// the native solver (or the GLPK reference).
public func firstScreen(width: Double, reference: Bool = false) throws -> Solution {
    let header = LayoutView("header"), title = LayoutView("title").intrinsicSize(width: 120, height: 21)
    let ok = LayoutView("ok"), cancel = LayoutView("cancel"), container = LayoutView.container
    let layout = Layout(container: ContainerSize(width: width, height: 667), views: [header, title, ok, cancel]) {
        pin(header, to: container, edges: [.left, .top, .right])
        header.height == 60
        title.top == header.bottom + 20
        title.centerX == container.centerX
        ok.top == title.bottom + 20
        ok.left == container.leftMargin
        cancel.left == ok.right + 8
        cancel.right == container.rightMargin
        cancel.top == ok.top
        cancel.width == ok.width
        ok.height == 44
        cancel.height == ok.height
    }
    let solver: LayoutSolver = reference ? GLPKLayoutSolver() : CassowaryLayoutSolver()
    return try solver.load(layout, variant: nil)
}
