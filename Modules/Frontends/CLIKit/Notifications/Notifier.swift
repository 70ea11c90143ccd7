import Foundation
import Kernel
import Synchronization

/// Tells the person of a `Notice` while a front end stays open: on the terminal (the bell, or a
/// desktop notification through it), and through `notify.command` when one is set. Others'
/// words reach the terminal only without control characters, so they can never end the escape
/// sequence early or start one.
public final class Notifier: Sendable {
    /// How the terminal is told (`notify.style`).
    public enum Style: String, CaseIterable, Sendable {
        /// Chosen by the terminal (`resolved(environment:)`).
        case auto
        /// The bell: every terminal has it; tmux marks the window.
        case bell
        /// OSC 9 (iTerm2, WezTerm, Windows Terminal, foot, ghostty): a desktop notification.
        case osc9
        /// OSC 777 (VTE terminals: GNOME Terminal, Tilix; urxvt): a title and a body.
        case osc777
        /// OSC 99 (kitty).
        case osc99
        /// Nothing on the terminal.
        case off

        /// The style `auto` means for the terminal `environment` describes: a desktop
        /// notification where the terminal is known to show one, else the bell.
        public func resolved(environment: [String: String]) -> Style {
            guard self == .auto else { return self }
            let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
            if term.contains("kitty") { return .osc99 }
            if ["iTerm.app", "WezTerm", "ghostty"].contains(program) || term.hasPrefix("foot") { return .osc9 }
            if environment["VTE_VERSION"] != nil { return .osc777 }
            return .bell
        }
    }

    /// How long `notify.command` may run before it is killed.
    public static let commandTimeout: Duration = .seconds(5)
    /// Most `notify.command`s running at once; a notice past them is not handed to another.
    public static let commandsAtOnce = 4
    /// Most characters of others' words in a terminal notification.
    static let textLimit = 200

    private let style: Style
    private let inTmux: Bool
    private let command: URL?
    private let write: @Sendable (String) -> Void
    private let running = Mutex(0)

    /// A notifier in `style` (`auto` resolved by `environment`), running `command` (a program,
    /// without a shell) for each notice, writing to the terminal with `write`.
    public init(style: Style, command: String?, environment: [String: String], write: @escaping @Sendable (String) -> Void) {
        self.style = style.resolved(environment: environment)
        inTmux = environment["TMUX"] != nil
        self.command = command.map { URL(fileURLWithPath: $0) }
        self.write = write
    }

    /// Tells of `notice`: on the terminal, and to the command.
    public func notify(_ notice: Notice) {
        let bytes = Self.terminalBytes(for: notice, style: style, inTmux: inTmux)
        if !bytes.isEmpty { write(bytes) }
        if let command { run(command, with: notice) }
    }

    /// What the terminal is sent for `notice` in `style`; inside tmux an OSC passes through it
    /// (tmux's `allow-passthrough`) while the bell needs no wrapping.
    public static func terminalBytes(for notice: Notice, style: Style, inTmux: Bool) -> String {
        let title = clean(notice.conversation == notice.sender ? notice.sender : "\(notice.sender) in \(notice.conversation)")
        let body = clean(notice.text)
        let sequence: String
        switch style {
        case .auto, .bell: return "\u{7}"
        case .off: return ""
        case .osc9: sequence = "\u{1B}]9;\(title): \(body)\u{1B}\\"
        case .osc777: sequence = "\u{1B}]777;notify;\(title.replacingOccurrences(of: ";", with: ","));\(body)\u{1B}\\"
        case .osc99: sequence = "\u{1B}]99;;\(title): \(body)\u{1B}\\"
        }
        guard inTmux else { return sequence }
        return "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }

    /// `text` without any control character (C0, DEL, C1) or bidirectional override, on one
    /// line, at most `textLimit` characters.
    static func clean(_ text: String) -> String {
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar.isLineBreak || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value)
            {
                cleaned.append(" ")
            } else {
                cleaned.append(scalar)
            }
        }
        let line = String(cleaned)
        return line.count > textLimit ? String(line.prefix(textLimit - 1)) + "…" : line
    }

    /// Runs `program` with the notice's JSON on its standard input, on a task of its own, killed
    /// after `commandTimeout`: a command that hangs never stalls the front end.
    private func run(_ program: URL, with notice: Notice) {
        let admitted = running.withLock { count in
            guard count < Self.commandsAtOnce else { return false }
            count += 1
            return true
        }
        guard admitted else { return }
        let json = Data((notice.json + "\n").utf8)
        Task.detached { [self] in
            defer { running.withLock { $0 -= 1 } }
            let process = Process()
            process.executableURL = program
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let (ended, end) = AsyncStream<Void>.makeStream()
            process.terminationHandler = { _ in end.finish() }
            guard (try? process.run()) != nil else { return }
            try? input.fileHandleForWriting.write(contentsOf: json)
            try? input.fileHandleForWriting.close()
            let endedInTime = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await _ in ended {}
                    return true
                }
                group.addTask {
                    try? await Task.sleep(for: Self.commandTimeout)
                    return false
                }
                let first = await group.next() ?? true
                group.cancelAll()
                return first
            }
            if !endedInTime { kill(process.processIdentifier, SIGKILL) }
        }
    }
}

extension Unicode.Scalar {
    /// Line and paragraph separators.
    fileprivate var isLineBreak: Bool { value == 0x2028 || value == 0x2029 || value == 0x85 }
}
