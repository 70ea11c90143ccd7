/// Where the REPL's lines come from, and how output reaches the screen without garbling what the
/// user is typing. `LineEditor` on a terminal; `ScriptedInput` when input is piped.
@MainActor
public protocol REPLInput: AnyObject {
    /// Reads one line after showing `prompt`; `nil` at end of input (Ctrl-D).
    func readLine(prompt: String) async -> String?
    /// Reads a secret without echo; `nil` at end of input.
    func readSecret(prompt: String) async -> String?
    /// Prints text above the line being edited, then redraws it.
    func printAbove(_ text: String)
    /// Supplies tab completions for the word being typed.
    var completer: (@MainActor (String) -> [String])? { get set }
    /// True for a person at a terminal, not a script: a status (the hotlist) can be shown with
    /// the prompt, and a new password is asked twice.
    var isTerminal: Bool { get }
    /// Shows `status` before the prompt, redrawing the line being edited.
    func setStatus(_ status: String)
    /// Told the line's text each time a key changes it, and "" when it is submitted: where a
    /// chat learns that its person is typing. Only a terminal's editor tells.
    var lineChanged: (@MainActor (String) -> Void)? { get set }
}

extension REPLInput {
    public var isTerminal: Bool { false }
    public func setStatus(_ status: String) {}
    public var lineChanged: (@MainActor (String) -> Void)? {
        get { nil }
        set {}
    }
}
