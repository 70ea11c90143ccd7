import CLIKit
import Kernel

/// What a REPL screen gets: output above the prompt, secret input, navigation, look-ups across
/// features and the container for its view models.
@MainActor
public final class REPLContext {
    /// The terminal.
    public let console: Console
    /// References across features.
    public let lookup: any FrontendLookup
    let input: any REPLInput
    let navigator: @MainActor (Navigation) -> Void
    let status: @MainActor (String) -> Void
    private let container: AnyObject

    /// A request to change screens.
    public enum Navigation: Sendable {
        /// Show a route, remembering the current one for `back`.
        case push(Route)
        /// Show a route and forget the screens before it.
        case reset(Route)
        /// Return to the previous screen.
        case back
        /// The start screen the enabled features offer (after signing in or out).
        case home
        /// The current screen again, made afresh (a conversation back at its newest messages).
        case reload
    }

    init(
        console: Console, lookup: any FrontendLookup, input: any REPLInput, container: AnyObject,
        status: @escaping @MainActor (String) -> Void, navigator: @escaping @MainActor (Navigation) -> Void
    ) {
        self.console = console
        self.lookup = lookup
        self.input = input
        self.container = container
        self.navigator = navigator
        self.status = status
    }

    /// Shows the screen's `status` with the prompt (on a terminal), before the hotlist: who is
    /// typing in a chat. "" clears it; a screen that leaves has it cleared.
    public func setStatus(_ status: String) { self.status(status) }

    /// Prints a line above the prompt.
    public func show(_ line: String) { input.printAbove(line) }

    /// Prints a page of older lines and pictures (`/more`): at the top of a full-screen UI's pane.
    public func showOlder(_ page: [Printed]) { input.printOlder(page) }

    /// Prints `items` above the prompt in order: lines, and pictures where `drawsPictures`.
    public func show(_ items: [Printed]) { items.forEach(input.printItem) }

    /// Prints the line that marks where unread lines start (a full-screen UI jumps there on a key).
    public func showUnreadMarker(_ line: String) {
        input.markUnreadStart()
        input.printAbove(line)
    }

    /// Whether a `Printed.picture` is drawn: only a full-screen UI on a terminal that draws
    /// pictures does, so that nothing is loaded for nothing.
    public var drawsPictures: Bool { input.drawsPictures }

    /// The largest file drawn as a picture; a larger one shows only its line.
    public static let maxPictureBytes = 10 * 1024 * 1024

    /// Prints the REPL's own words (a welcome, a hint) above the prompt, wrapped at spaces to
    /// the terminal's width rather than broken mid-word at its edge.
    public func say(_ sentence: String) { TextFormat.wrap(sentence, width: columns).forEach(input.printAbove) }

    /// How wide printed lines may be: the input's pane, else the terminal.
    public var columns: Int { input.columns ?? console.columns }

    /// Prints an error above the prompt, in red on a terminal.
    public func showError(_ error: AppError) { input.printAbove(console.styled("error: " + TerminalText.line(error.message), .red)) }

    /// The usual way to show an outcome: a loaded value goes to `body`, a failure is shown as an
    /// error, and idle (cancelled) or loading shows nothing.
    public func present<Value>(_ state: Loadable<Value>, _ body: (Value) async -> Void) async {
        switch state {
        case .loaded(let value): await body(value)
        case .failed(let error): showError(error)
        case .idle, .loading: break
        }
    }

    /// Reads a secret (a password) without echo.
    public func readSecret(prompt: String) async -> String? { await input.readSecret(prompt: prompt) }

    /// Reads a password to be set: on a terminal twice, since a typo nobody saw would lock the
    /// person out; from a script once. `nil` at end of input, and (having said so) when the two differ.
    public func readNewSecret(prompt: String) async -> String? {
        guard let password = await input.readSecret(prompt: prompt) else { return nil }
        guard input.isTerminal else { return password }
        guard let again = await input.readSecret(prompt: PasswordPrompt.again(prompt)) else { return nil }
        guard again == password else {
            showError(PasswordPrompt.mismatch)
            return nil
        }
        return password
    }

    /// Changes screens.
    public func navigate(_ navigation: Navigation) { navigator(navigation) }

    /// The container, seen through a feature's factory protocol.
    public func factory<Factory>(_ type: Factory.Type) -> Factory {
        guard let factory = container as? Factory else { preconditionFailure("the container does not provide \(type)") }
        return factory
    }
}
