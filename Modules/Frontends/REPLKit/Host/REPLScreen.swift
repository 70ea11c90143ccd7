/// One screen of the REPL (sign-in, conversation list, chat…), served by a feature.
@MainActor
public protocol REPLScreen: AnyObject {
    /// The prompt shown while this screen is active.
    var prompt: String { get }
    /// Commands that work on this screen only.
    var commands: [REPLCommand] { get }
    /// Shows the screen and starts its live updates.
    func enter() async
    /// Handles a line that is not a command (e.g. a chat message).
    func handle(_ line: String) async
    /// Stops live updates; called when another screen takes over.
    func leave()
    /// Words offered by tab completion besides commands (e.g. conversation names).
    var completions: [String] { get }
    /// The line being edited changed (on a terminal): a chat tells the others its person is typing.
    func lineChanged(_ line: String)
}

extension REPLScreen {
    public var commands: [REPLCommand] { [] }
    public var completions: [String] { [] }
    public func leave() {}
    public func lineChanged(_ line: String) {}
}
