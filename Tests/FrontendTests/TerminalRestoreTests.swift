import Foundation
import TestSupport
import Testing

/// The terminal is left as it was however `messageai` is stopped: a real process on a
/// pseudo-terminal, its settings read from the test's side.
@Suite("Terminal restore", .serialized, .timeLimit(.minutes(1)))
struct TerminalRestoreTests {
    /// A pseudo-terminal: the test reads and writes `controller`; the process gets `device`.
    struct PseudoTerminal: Sendable {
        let controller: Int32
        let device: Int32

        /// Linux's pseudo-terminal ioctls (`posix_openpt` and friends are not in the Glibc module).
        private static let getNumber: UInt = 0x8004_5430, setLock: UInt = 0x4004_5431

        init() throws {
            controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var unlock: Int32 = 0, number: UInt32 = 0
            guard controller >= 0, ioctl(controller, Self.setLock, &unlock) == 0, ioctl(controller, Self.getNumber, &number) == 0 else {
                throw POSIXError(.ENODEV)
            }
            device = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard device >= 0 else { throw POSIXError(.ENODEV) }
        }

        /// The device's local modes (echo, canonical input).
        var localModes: tcflag_t {
            var settings = termios()
            tcgetattr(device, &settings)
            return settings.c_lflag
        }

        /// Reads from the controller until `text` has appeared or 10 s have passed (on a thread
        /// of its own, as it blocks).
        func waitFor(_ text: String) async -> String {
            await OwnThread.run { readUntil(text) }
        }

        private func readUntil(_ text: String) -> String {
            var seen = ""
            let deadline = Date().addingTimeInterval(10)
            var buffer = [UInt8](repeating: 0, count: 4_096)
            var poller = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            while !seen.contains(text), Date() < deadline {
                guard poll(&poller, 1, 100) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
                if count > 0 { seen += String(decoding: buffer[..<count], as: UTF8.self) }
            }
            return seen
        }

        /// Tells the process its terminal is `rows` × `columns`, as a terminal emulator does.
        func setSize(rows: UInt16, columns: UInt16) {
            var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(device, UInt(TIOCSWINSZ), &size)
        }

        /// Types `text` on the terminal.
        func type(_ text: String) {
            _ = text.utf8CString.withUnsafeBufferPointer { write(controller, $0.baseAddress, $0.count - 1) }
        }

        func close() {
            Glibc.close(controller)
            Glibc.close(device)
        }
    }

    /// `messageai arguments` on `terminal`; Swift's backtracer is off, so that a crash ends the
    /// process at once instead of waiting at the terminal for someone to read the backtrace.
    /// In `home` (a new one by default), with `extra` in its environment.
    func start(_ arguments: [String], on terminal: PseudoTerminal, home: URL = Self.newHome(), extra: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = LocalMachine.messageai
        process.arguments = arguments
        process.environment = Self.environment(home: home).merging(extra) { $1 }
        let handle = FileHandle(fileDescriptor: terminal.device, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    static func newHome() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("messageai-pty-\(UUID().uuidString)") }

    static func environment(home: URL) -> [String: String] {
        ["HOME": home.path, "TERM": "xterm", "NO_COLOR": "1", "MESSAGEAI_AUTH_BCRYPT_COST": "4", "SWIFT_BACKTRACE": "enable=no"]
    }

    /// `messageai arguments` in `home` without a terminal, `input` on its standard input; its exit status.
    func run(_ arguments: [String], home: URL, input: String = "") async throws -> Int32 {
        let process = Process()
        process.executableURL = LocalMachine.messageai
        process.arguments = arguments
        process.environment = Self.environment(home: home)
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try pipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try pipe.fileHandleForWriting.close()
        return await process.ended()
    }

    @Test("Ctrl-C at a password prompt ends with 130 and echo back on")
    func interruptAtPasswordPrompt() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let process = try start(["login", "--email", "ada@example.com"], on: terminal)
        #expect(await terminal.waitFor("Password:").contains("Password:"))
        #expect(terminal.localModes & tcflag_t(ECHO) == 0, "echo is off while the password is typed")
        kill(process.processIdentifier, SIGINT)
        await process.ended()
        #expect(process.terminationStatus == 130)
        #expect(terminal.localModes & tcflag_t(ECHO) != 0)
    }

    @Test(
        "SIGTERM and SIGHUP to the REPL in raw mode end with 143 and 129 and the terminal cooked again",
        arguments: [(SIGTERM, 143), (SIGHUP, 129)] as [(Int32, Int32)])
    func signalToREPL(signal: Int32, status: Int32) async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let process = try start(["repl", "--backend", "memory", "--features", "profile,conversationlist,chat"], on: terminal)
        #expect(await terminal.waitFor("chats> ").contains("chats> "))
        #expect(terminal.localModes & tcflag_t(ICANON) == 0, "raw mode while editing")
        kill(process.processIdentifier, signal)
        await process.ended()
        #expect(process.terminationStatus == status)
        #expect(terminal.localModes & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
    }

    /// Ending mouse reports, leaving the alternate screen and showing the cursor, as `TerminalScreen` does.
    static let screenBack = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    @Test(
        "the full-screen UI gives the terminal back (cooked, main screen, cursor shown) on Ctrl-C, SIGTERM, SIGHUP and a crash",
        arguments: [(nil, 0), (SIGTERM, 143), (SIGHUP, 129), (SIGABRT, 6)] as [(Int32?, Int32)])
    func fullScreenRestore(signal: Int32?, status: Int32) async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        terminal.setSize(rows: 24, columns: 80)
        let process = try start(["tui", "--backend", "memory", "--features", "profile,conversationlist,chat"], on: terminal)
        // The input row is blank before its prompt is drawn, so the prompt arrives whole (other
        // rows are painted by their changed cells only).
        let opened = await terminal.waitFor("chats>")
        #expect(
            opened.contains("\u{1B}[?1049h") && opened.contains("\u{1B}[?1006h") && opened.contains("chats>"),
            "\(opened.suffix(300).debugDescription)")
        #expect(terminal.localModes & tcflag_t(ICANON) == 0, "raw mode while the UI runs")
        if let signal { kill(process.processIdentifier, signal) } else { terminal.type("\u{03}") }
        #expect(await terminal.waitFor(Self.screenBack).contains(Self.screenBack))
        await process.ended()
        #expect(process.terminationStatus == status)
        #expect(terminal.localModes & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
    }

    @Test("a direct message sent from another process reaches the full-screen UI's terminal as the exact OSC 9 bytes")
    func notificationBytes() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        terminal.setSize(rows: 24, columns: 80)
        let home = Self.newHome()
        for name in ["ada", "bob"] {
            let signUp = ["--profile", name, "signup", "--email", "\(name)@example.com", "--name", name.capitalized, "--password-stdin"]
            #expect(try await run(signUp, home: home, input: "password123\n") == 0)
        }
        #expect(try await run(["--profile", "bob", "chats", "new", "ada@example.com"], home: home) == 0)
        #expect(try await run(["--profile", "ada", "chats", "new", "bob@example.com"], home: home) == 0)
        let process = try start(["--profile", "ada", "tui"], on: terminal, home: home, extra: ["MESSAGEAI_NOTIFY_STYLE": "osc9"])
        _ = await terminal.waitFor("chats>")
        #expect(try await run(["--profile", "bob", "send", "Ada", "lunch?"], home: home) == 0)
        let notice = "\u{1B}]9;Bob: lunch?\u{1B}\\"
        #expect(await terminal.waitFor(notice).contains(notice))
        terminal.type("\u{03}")
        await process.ended()
        #expect(process.terminationStatus == 0)
    }
}
