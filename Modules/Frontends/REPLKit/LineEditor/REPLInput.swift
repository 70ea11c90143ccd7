import Kernel

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
    /// How many columns printed lines are shown in, when not the terminal's whole width (a
    /// full-screen UI's pane): what the REPL's own words are wrapped to.
    var columns: Int? { get }
    /// Prints a page of older lines and pictures: before the others where the input keeps them
    /// in place (a full-screen UI), else as any others.
    func printOlder(_ page: [Printed])
    /// The next line printed is where the unread lines start: a full-screen UI jumps there on a key.
    func markUnreadStart()
    /// Told each route the host shows: a full-screen UI marks the open conversation in its list.
    func showing(_ route: Route)
    /// Whether `printPicture` draws: a full-screen UI on a terminal that draws pictures.
    var drawsPictures: Bool { get }
    /// Prints a picture (a PNG, JPEG, GIF or WebP file's `bytes`, loaded as it is drawn) after the lines
    /// printed so far, where `drawsPictures`.
    func printPicture(_ bytes: @escaping @Sendable () async throws -> [UInt8])
}

extension REPLInput {
    public var isTerminal: Bool { false }
    public func setStatus(_ status: String) {}
    public var columns: Int? { nil }
    public func printOlder(_ page: [Printed]) { page.forEach(printItem) }
    public func markUnreadStart() {}
    public func showing(_ route: Route) {}
    public var drawsPictures: Bool { false }
    public func printPicture(_ bytes: @escaping @Sendable () async throws -> [UInt8]) {}

    /// Prints `item` after what was printed so far: a line, or a picture where `drawsPictures`.
    public func printItem(_ item: Printed) {
        switch item {
        case .line(let text): printAbove(text)
        case .picture(let bytes): printPicture(bytes)
        }
    }
    public var lineChanged: (@MainActor (String) -> Void)? {
        get { nil }
        set {}
    }
}

/// What a screen prints above the prompt: a line, or a picture, drawn where the input draws
/// pictures (`REPLInput.drawsPictures`) and left out elsewhere. A page of older lines
/// (`REPLInput.printOlder`) carries both, in order, so that its pictures land under their
/// messages as a new message's do.
public enum Printed: Sendable {
    /// A line of text (it may hold several, split at newlines).
    case line(String)
    /// A picture: a PNG, JPEG, GIF or WebP file's bytes, loaded only as it is drawn.
    case picture(@Sendable () async throws -> [UInt8])
}
