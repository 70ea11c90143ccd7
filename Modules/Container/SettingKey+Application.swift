import Files
import Kernel
import ServiceGraph
import SettingsKit

/// The settings `messageai` reads: each key's name, default, meaning and check, once.
extension SettingKey {
    /// Service implementations.
    public static let backend = oneOf(
        "backend", default: Backend.sqlite.rawValue, "service implementations", Backend.allCases.filter { $0 != .postgres }.map(\.rawValue))
    /// The front end that runs when no subcommand is given (the default shown is for a terminal;
    /// without one it is `cli`).
    public static let frontend = oneOf(
        "frontend", default: "repl", "front end when no subcommand is given (on a terminal; else cli): repl, tui (full screen) or cli",
        ["repl", "tui", "cli"])
    /// How the terminal tells of a direct message or a mention (`Notifier.Style`).
    public static let notifyStyle = oneOf(
        "notify.style", default: "auto",
        "how a direct message or a mention in another conversation is told: auto (by $TERM), bell, osc9, osc777, osc99 or off",
        ["auto", "bell", "osc9", "osc777", "osc99", "off"])
    /// How the full-screen UI draws pictures (`TerminalGraphics`).
    public static let tuiPictures = oneOf(
        "tui.pictures", default: "auto",
        "how the full-screen UI draws pictures: auto (asks the terminal), kitty, sixel or off (each file only as its line)",
        ["auto", "kitty", "sixel", "off"])
    /// A program told of each notice.
    public static let notifyCommand = SettingKey(
        "notify.command", default: nil, "a program run (without a shell) for each notice, its JSON on standard input; killed after 5 s")
    /// The enabled features.
    public static let features = SettingKey("features", default: "all", "comma-separated features to enable, or all")
    /// The identity profile.
    public static let profile = SettingKey("profile", default: "default", "identity profile; each keeps its own session and history") { value in
        value.isEmpty || value.contains("/") || value.hasPrefix(".") ? "must be a plain name" : nil
    }
    /// The SQLite file.
    public static let sqlitePath = SettingKey(
        "sqlite.path", default: nil, "sqlite backend: the database file (unset: $XDG_DATA_HOME/messageai/messageai.sqlite)")
    /// The server of the remote backend.
    public static let remoteURL = SettingKey("remote.url", default: nil, "remote backend: the server, http://host:port or https://host:port")
    /// How long the remote backend waits for the server.
    public static let remoteTimeoutSeconds = integer(
        "remote.timeoutSeconds", default: 10, "remote backend: seconds to wait for the server", in: 1...300)
    /// Certificates the remote backend trusts besides the system's.
    public static let remoteCertificates = SettingKey(
        "remote.certificates", default: nil,
        "remote backend: PEM file of certificates to trust besides the system's (a self-signed server)")
    /// Where sessions and history live.
    public static let stateDir = SettingKey("state.dir", default: nil, "sessions and REPL history (unset: $XDG_STATE_HOME/messageai)")
    /// bcrypt cost of new password hashes.
    public static let bcryptCost = integer(
        "auth.bcryptCost", default: GraphOptions.defaultBcryptCost, "bcrypt cost of new password hashes",
        in: GraphOptions.bcryptCosts)
    /// Days a session may go unused before it ends.
    public static let sessionIdleDays = integer("auth.sessionIdleDays", default: 30, "days a session may go unused before it ends", in: 1...365)
    /// Largest file a person may share, in bytes; 0 turns files off.
    public static let filesMaxBytes = integer(
        "files.maxBytes", default: Int(FileLimits.defaultMaxBytes), "largest file that may be shared, in bytes (0: files off)",
        in: 0...(1 << 40))
    /// Memory backend: delay added to every call.
    public static let memoryLatencyMs = integer("memory.latencyMs", default: 0, "memory backend: delay added to every call, ms", in: 0...60_000)
    /// Memory backend: share of calls that fail.
    public static let memoryFailureRate = SettingKey("memory.failureRate", default: "0", "memory backend: share of calls that fail, 0–1") { value in
        Double(value).map { (0...1).contains($0) } == true ? nil : "must be a number from 0 to 1"
    }
    /// Memory backend: how long mock users take to answer.
    public static let memoryPeerDelayMs = integer(
        "memory.peerDelayMs", default: 1_200, "memory backend: how long mock users take to answer, ms",
        in: 0...600_000)
}

extension Settings {
    /// Every key `messageai` reads, in the order `messageai config` lists them, read from
    /// `MESSAGEAI_` variables (the server's `MESSAGEAI_SERVER_` ones are its own).
    public static let table = SettingTable(
        environmentPrefix: "MESSAGEAI_",
        keys: [
            .backend, .frontend, .features, .profile, .sqlitePath, .remoteURL, .remoteTimeoutSeconds, .remoteCertificates, .stateDir, .bcryptCost,
            .sessionIdleDays, .filesMaxBytes, .memoryLatencyMs, .memoryFailureRate, .memoryPeerDelayMs, .notifyStyle, .notifyCommand,
            .tuiPictures,
        ], otherPrefixes: ["MESSAGEAI_SERVER_", AppContainer.tokenVariable])
}
