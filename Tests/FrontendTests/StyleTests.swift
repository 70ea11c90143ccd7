import CLIKit
import Testing

@Suite("Styles", .timeLimit(.minutes(1)))
struct StyleTests {
    @Test(
        "each style wraps text in its ANSI code and a reset",
        arguments: [
            (Style.bold, "1"), (.dim, "2"), (.red, "31"), (.green, "32"), (.yellow, "33"), (.cyan, "36"),
        ])
    func ansi(_ style: Style, _ code: String) {
        #expect(style.apply(to: "hi") == "\u{1B}[\(code)mhi\u{1B}[0m")
    }
}
