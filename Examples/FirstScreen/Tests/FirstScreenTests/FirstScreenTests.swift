import FirstScreen
import LayoutModel
import LayoutSolving
import XCTest

final class FirstScreenTests: XCTestCase {
    /// 375 wide: the buttons share 375 - 8 - 8 - 8 = 351; the title is centred at its intrinsic width.
    func testBothSolversLayOutTheScreen() throws {
        for reference in [false, true] {
            let solution = try firstScreen(width: 375, reference: reference)
            XCTAssertEqual(solution.status, .solved)
            XCTAssertEqual(solution.frame(of: "header"), Frame(x: 0, y: 0, width: 375, height: 60))
            XCTAssertEqual(solution.frame(of: "title"), Frame(x: 127.5, y: 80, width: 120, height: 21))
            XCTAssertEqual(solution.frame(of: "ok"), Frame(x: 8, y: 121, width: 175.5, height: 44))
            XCTAssertEqual(solution.frame(of: "cancel"), Frame(x: 191.5, y: 121, width: 175.5, height: 44))
        }
    }
}
