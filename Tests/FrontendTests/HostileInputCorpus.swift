import Foundation
import Testing

/// One bad input and what must come of it.
struct HostileCase: Sendable, CustomTestStringConvertible {
    /// What special file a case needs before it runs.
    enum Setup: Sendable {
        case none
        /// A config file with these bytes, passed with `--config`.
        case configFile([UInt8], suffix: String = ".yaml")
        /// A FIFO passed as the config file.
        case configFIFO
        /// A FIFO as the SQLite database (`MESSAGEAI_SQLITE_PATH`).
        case databaseFIFO
        /// A SQLite database of another program as the database.
        case foreignDatabase
        /// A text file as the database.
        case textDatabase
        /// The profile `hostile`'s session file holds these bytes.
        case sessionFile([UInt8])
        /// The profile `hostile`'s session file is a FIFO.
        case sessionFIFO
        /// The profile `hostile`'s history file is a FIFO (the REPL must still run).
        case historyFIFO
    }

    /// Where standard output goes.
    enum Output: Sendable {
        case pipe
        /// `/dev/full`: every write fails with "no space left".
        case full
        /// A pipe whose reading end is closed first: writes fail with "broken pipe".
        case closedPipe
    }

    let name: String
    let arguments: [String]
    var stdin: [UInt8] = []
    var environment: [String: String] = [:]
    var setup: Setup = .none
    var output: Output = .pipe
    /// The exit code expected.
    let exit: Int32
    /// Text that standard output (REPL) or standard error must contain.
    var mentions: String?

    var testDescription: String { name }
}

private func text(_ string: String) -> [UInt8] { Array(string.utf8) }

/// The bad-input corpus: arguments, standard input, environment, config files, special files,
/// output conditions and REPL lines, across the classes of the "Hostile input" issue. Every case
/// runs as a real `messageai` process against one prepared world (Ada signed in, chats with
/// "Bob", "Bobby" and the group "Bank"), and must end in bounded time with the exit code given,
/// one line on standard error (REPL sessions: errors in their output), no crash, and the
/// database, sessions and history exactly as before.
enum HostileInputCorpus {
    static let longReference = String(repeating: "x", count: 100_000)
    static let zalgo = "a" + String(repeating: "\u{301}", count: 300)

    static let cases: [HostileCase] = grammar + references + messages + profiles + accounts + configuration + files + outputs + repl

    /// Command-line grammar and numeric options: usage errors (64).
    static let grammar: [HostileCase] = [
        HostileCase(name: "unknown subcommand", arguments: ["frobnicate"], exit: 64),
        HostileCase(name: "unknown option", arguments: ["chats", "--frobnicate"], exit: 64),
        HostileCase(name: "escape in an unknown option", arguments: ["chats", "--\u{1B}[2J"], exit: 64, mentions: "␛[2J"),
        HostileCase(name: "send without text", arguments: ["send", "Bob"], exit: 64),
        HostileCase(name: "send without anything", arguments: ["send"], exit: 64),
        HostileCase(name: "history --limit 0", arguments: ["history", "Bob", "--limit", "0"], exit: 64),
        HostileCase(name: "history --limit -1", arguments: ["history", "Bob", "--limit", "-1"], exit: 64),
        HostileCase(name: "history --limit 501", arguments: ["history", "Bob", "--limit", "501"], exit: 64),
        HostileCase(name: "history --limit overflow", arguments: ["history", "Bob", "--limit", "99999999999999999999"], exit: 64),
        HostileCase(name: "history --limit not a number", arguments: ["history", "Bob", "--limit", "ten"], exit: 64),
        HostileCase(name: "history --limit Int.min", arguments: ["history", "Bob", "--limit", "-9223372036854775808"], exit: 64),
        HostileCase(name: "tail --count 0 (would wait forever)", arguments: ["tail", "--count", "0"], exit: 64),
        HostileCase(name: "tail --count -5", arguments: ["tail", "--count", "-5"], exit: 64),
        HostileCase(name: "users search --limit 1000000", arguments: ["users", "search", "a", "--limit", "1000000", "--json"], exit: 64),
        HostileCase(name: "users search --limit 0", arguments: ["users", "search", "a", "--limit", "0"], exit: 64),
        HostileCase(name: "users search --limit -1", arguments: ["users", "search", "a", "--limit", "-1"], exit: 64),
        HostileCase(name: "chats new without users", arguments: ["chats", "new"], exit: 64),
        HostileCase(name: "chats new with two users and no title", arguments: ["chats", "new", "bob@example.com", "bobby@example.com"], exit: 64),
        HostileCase(name: "profile set with nothing to set", arguments: ["profile", "set"], exit: 64),
        HostileCase(name: "--backend unknown", arguments: ["chats", "--backend", "carrier-pigeon"], exit: 64),
        HostileCase(name: "--profile with a slash", arguments: ["chats", "--profile", "../../etc"], exit: 64),
        HostileCase(name: "--profile hidden", arguments: ["chats", "--profile", ".x"], exit: 64),
        HostileCase(name: "--features unknown", arguments: ["chats", "--features", "chat,nonsense"], exit: 64, mentions: "unknown feature"),
        HostileCase(name: "--features empty", arguments: ["chats", "--features", ""], exit: 64),
        HostileCase(name: "disabled feature", arguments: ["chats", "--features", "auth"], exit: 64),
        HostileCase(name: "password on the command line", arguments: ["login", "--email", "ada@example.com", "--password", "x"], exit: 64),
        HostileCase(name: "login without a terminal or --password-stdin", arguments: ["login", "--email", "ada@example.com"], exit: 64),
    ]

    /// Conversation references: not found (66) or ambiguous (67), never a crash or a silent pick.
    static let references: [HostileCase] = [
        HostileCase(name: "Int.min as a list number reads as an option", arguments: ["send", "-9223372036854775808", "hi"], exit: 64),
        HostileCase(name: "Int.min as a list number after --", arguments: ["send", "--", "-9223372036854775808", "hi"], exit: 66),
        HostileCase(name: "Int.max as a list number", arguments: ["send", "9223372036854775807", "hi"], exit: 66),
        HostileCase(name: "number past Int", arguments: ["send", "99999999999999999999", "hi"], exit: 66),
        HostileCase(name: "list number 0", arguments: ["send", "0", "hi"], exit: 66),
        HostileCase(name: "100,000-character reference is quoted short", arguments: ["send", longReference, "hi"], exit: 66, mentions: "x…'"),
        HostileCase(name: "empty reference", arguments: ["send", "", "hi"], exit: 66),
        HostileCase(name: "reference with an escape", arguments: ["history", "\u{1B}[31mred"], exit: 66, mentions: "␛[31mred"),
        HostileCase(name: "reference with a newline", arguments: ["history", "Bob\nBank"], exit: 66),
        HostileCase(name: "bob could be Bob or Bobby", arguments: ["send", "bob", "hi"], exit: 67, mentions: "use the number or the id"),
        HostileCase(name: "b could be three", arguments: ["read", "b"], exit: 67),
        HostileCase(name: "unknown message id for --before", arguments: ["history", "Bank", "--before", "nope"], exit: 66),
        HostileCase(name: "tail of an unknown chat", arguments: ["tail", "nobody"], exit: 66),
    ]

    /// Message text: invalid input (65), nothing stored.
    static let messages: [HostileCase] = [
        HostileCase(name: "message with ESC", arguments: ["send", "Bank", "hi\u{1B}[2J"], exit: 65),
        HostileCase(name: "message with BEL", arguments: ["send", "Bank", "ding\u{7}"], exit: 65),
        HostileCase(name: "message with a lone CR", arguments: ["send", "Bank", "ok\r2. Bank"], exit: 65),
        HostileCase(name: "message with a C1 control", arguments: ["send", "Bank", "x\u{85}y"], exit: 65),
        HostileCase(name: "message with DEL", arguments: ["send", "Bank", "x\u{7F}"], exit: 65),
        HostileCase(name: "empty message", arguments: ["send", "Bank", ""], exit: 65),
        HostileCase(name: "whitespace message", arguments: ["send", "Bank", " \t \n "], exit: 65),
        HostileCase(name: "4,001 characters", arguments: ["send", "Bank", String(repeating: "a", count: 4_001)], exit: 65),
        HostileCase(name: "16,001 bytes in few characters", arguments: ["send", "Bank", String(repeating: "👩🏽‍💻", count: 1_100)], exit: 65),
        HostileCase(
            name: "one character of 50,000 combining marks", arguments: ["send", "Bank", "a" + String(repeating: "\u{301}", count: 50_000)], exit: 65),
        HostileCase(name: "stdin: NUL bytes", arguments: ["send", "Bank", "-"], stdin: [104, 0, 105], exit: 65),
        HostileCase(name: "stdin: invalid UTF-8", arguments: ["send", "Bank", "-"], stdin: [0x68, 0xC3, 0x28, 0xFF], exit: 65, mentions: "UTF-8"),
        HostileCase(
            name: "stdin: 1 MB is refused unread", arguments: ["send", "Bank", "-"], stdin: Array(repeating: 0x61, count: 1_000_000), exit: 65,
            mentions: "longer than"),
        HostileCase(name: "stdin: empty", arguments: ["send", "Bank", "-"], exit: 65),
        HostileCase(name: "stdin: escape sequences", arguments: ["send", "Bank", "-"], stdin: text("\u{1B}]0;pwned\u{7}\n"), exit: 65),
        HostileCase(name: "stdin: lone CR", arguments: ["send", "Bank", "-"], stdin: text("a\rb"), exit: 65),
        HostileCase(name: "edit to text with ESC", arguments: ["edit", "Bank", "hostile-1", "hi\u{1B}[2J"], exit: 65),
        HostileCase(name: "edit to 4,001 characters", arguments: ["edit", "Bank", "hostile-1", String(repeating: "a", count: 4_001)], exit: 65),
        HostileCase(name: "edit to blank text", arguments: ["edit", "Bank", "hostile-1", " \n "], exit: 65),
        HostileCase(
            name: "edit from 1 MB of stdin is refused unread", arguments: ["edit", "Bank", "hostile-1", "-"],
            stdin: Array(repeating: 0x61, count: 1_000_000), exit: 65, mentions: "longer than"),
        HostileCase(name: "edit without text", arguments: ["edit", "Bank", "hostile-1"], exit: 64),
        HostileCase(name: "edit of an unknown message", arguments: ["edit", "Bank", "nope", "x"], exit: 66),
        HostileCase(name: "edit of a message id with a slash", arguments: ["edit", "Bank", "../hostile-1", "x"], exit: 65),
        HostileCase(name: "edit of a 100,000-character message id", arguments: ["edit", "Bank", longReference, "x"], exit: 65),
        HostileCase(
            name: "edit by someone who has not joined the conversation", arguments: ["--profile", "bob", "edit", "Bank", "hostile-1", "mine"],
            exit: 66),
        HostileCase(name: "delete without a message", arguments: ["delete", "Bank"], exit: 64),
        HostileCase(name: "reaction of two letters", arguments: ["react", "Bank", "hostile-1", "ok"], exit: 65),
        HostileCase(name: "reaction of two emoji", arguments: ["react", "Bank", "hostile-1", "👍👍"], exit: 65),
        HostileCase(name: "reaction with ESC", arguments: ["react", "Bank", "hostile-1", "\u{1B}[2J"], exit: 65),
        HostileCase(name: "reaction with a right-to-left override", arguments: ["react", "Bank", "hostile-1", "👍\u{202E}"], exit: 65),
        HostileCase(
            name: "reaction of 1,000 skin-tone marks", arguments: ["react", "Bank", "hostile-1", String(repeating: "\u{1F3FB}", count: 1_000)],
            exit: 65),
        HostileCase(name: "reaction without an emoji", arguments: ["react", "Bank", "hostile-1"], exit: 64),
        HostileCase(name: "reply to an unknown message", arguments: ["send", "Bank", "hi", "--reply-to", "nope"], exit: 66),
        HostileCase(name: "reply to an id with an escape", arguments: ["send", "Bank", "hi", "--reply-to", "\u{1B}[2J"], exit: 65),
        HostileCase(name: "reply to a 100,000-character id", arguments: ["send", "Bank", "hi", "--reply-to", longReference], exit: 65),
        HostileCase(name: "delete of an unknown message", arguments: ["delete", "Bank", "nope"], exit: 66),
        HostileCase(
            name: "delete by someone who has not joined the conversation", arguments: ["--profile", "bob", "delete", "Bank", "hostile-1"], exit: 66),
        HostileCase(name: "message search of 100,000 characters", arguments: ["search", longReference], exit: 65, mentions: "at most 256 bytes"),
        HostileCase(name: "empty search", arguments: ["search", ""], exit: 65),
        HostileCase(name: "search of operators only", arguments: ["search", "* \" -- \" *"], exit: 65, mentions: "at least one word"),
        HostileCase(name: "search with an unbalanced quote runs to the end", arguments: ["search", "\"hello, bank"], exit: 0),
        HostileCase(name: "search with ESC", arguments: ["search", "bank\u{1B}[2J"], exit: 65),
        HostileCase(name: "search with a one-letter prefix", arguments: ["search", "b*"], exit: 65),
        HostileCase(name: "search of nine terms", arguments: ["search", "a b c d e f g h i"], exit: 65),
        HostileCase(name: "search of one letter with 300 combining marks", arguments: ["search", zalgo], exit: 65, mentions: "at most 256 bytes"),
        HostileCase(name: "search with --limit 0", arguments: ["search", "bank", "--limit", "0"], exit: 64),
        HostileCase(name: "search of a word with a prepend letter and a quote (one character)", arguments: ["search", "x\u{0D4E}\"y"], exit: 0),
        HostileCase(name: "search of a word with a prepend letter and an apostrophe", arguments: ["search", "x\u{0D4E}'y bank"], exit: 0),
        HostileCase(name: "search of a word with a prepend letter and a backslash", arguments: ["search", "x\u{0D4E}\\y"], exit: 0),
        HostileCase(name: "search of FTS5 and tsquery operators", arguments: ["search", "bank:* & !(x | y) NEAR(a b) ^c"], exit: 0),
        HostileCase(
            name: "search after a cursor with a slash", arguments: ["search", "bank", "--before", "../x"], exit: 65, mentions: "whole number"),
        HostileCase(
            name: "search after a word, not a cursor (a result's id)", arguments: ["search", "bank", "--before", "nope"], exit: 65,
            mentions: "whole number"),
        HostileCase(name: "search after a negative cursor given with =", arguments: ["search", "bank", "--before=-5"], exit: 65),
        HostileCase(
            name: "search after a cursor of 100,000 digits", arguments: ["search", "bank", "--before", String(repeating: "9", count: 100_000)],
            exit: 65),
        HostileCase(
            name: "search after a cursor no result has: the results below it", arguments: ["search", "bank", "--before", "9223372036854775807"],
            exit: 0),
        HostileCase(name: "search in a conversation of a 100,000-character name", arguments: ["search", "bank", "--chat", longReference], exit: 66),
        HostileCase(name: "mentions since a word", arguments: ["mentions", "--since", "yesterday"], exit: 65, mentions: "whole number"),
        HostileCase(name: "mentions since a negative cursor reads as an option", arguments: ["mentions", "--since", "-5"], exit: 64),
        HostileCase(name: "mentions since a negative cursor given with =", arguments: ["mentions", "--since=-5"], exit: 65),
        HostileCase(
            name: "mentions since a cursor of 100,000 digits", arguments: ["mentions", "--since", String(repeating: "9", count: 100_000)], exit: 65),
        HostileCase(name: "mentions with --limit 1000000", arguments: ["mentions", "--limit", "1000000"], exit: 64),
        HostileCase(name: "typing for 0 seconds", arguments: ["typing", "Bank", "--seconds", "0"], exit: 64),
        HostileCase(name: "typing for a year", arguments: ["typing", "Bank", "--seconds", "31536000"], exit: 64),
        HostileCase(
            name: "typing for a number too large to read", arguments: ["typing", "Bank", "--seconds", String(repeating: "9", count: 40)], exit: 64),
        HostileCase(name: "typing in a conversation of a 100,000-character name", arguments: ["typing", longReference, "--stop"], exit: 66),
        HostileCase(
            name: "typing by someone who has not joined the conversation", arguments: ["--profile", "bob", "typing", "Bank", "--stop"], exit: 66),
    ]

    /// Profiles and titles: invalid input (65).
    static let profiles: [HostileCase] = [
        HostileCase(name: "name with ESC", arguments: ["profile", "set", "--name", "Ada\u{1B}[8m"], exit: 65),
        HostileCase(
            name: "name with a zero-width space", arguments: ["profile", "set", "--name", "Bob\u{200B} Smith"], exit: 65, mentions: "invisible"),
        HostileCase(name: "name with a zero-width joiner", arguments: ["profile", "set", "--name", "Bob S\u{200D}mith"], exit: 65),
        HostileCase(name: "name with a right-to-left override", arguments: ["profile", "set", "--name", "\u{202E}evil"], exit: 65),
        HostileCase(name: "name with a no-break space", arguments: ["profile", "set", "--name", "Bob\u{A0}Smith"], exit: 65),
        HostileCase(name: "name ending in a blank Braille pattern", arguments: ["profile", "set", "--name", "Bob Smith\u{2800}"], exit: 65),
        HostileCase(name: "name with a line separator", arguments: ["profile", "set", "--name", "Bob\u{2028}Smith"], exit: 65),
        HostileCase(name: "name with a BOM", arguments: ["profile", "set", "--name", "\u{FEFF}Ada"], exit: 65),
        HostileCase(name: "name with a newline", arguments: ["profile", "set", "--name", "Ada\n2. Bank"], exit: 65),
        HostileCase(name: "name of 65 characters", arguments: ["profile", "set", "--name", String(repeating: "n", count: 65)], exit: 65),
        HostileCase(name: "name of 300 combining marks", arguments: ["profile", "set", "--name", zalgo], exit: 65, mentions: "bytes"),
        HostileCase(name: "blank name", arguments: ["profile", "set", "--name", "   "], exit: 65),
        HostileCase(name: "status of 141 characters", arguments: ["profile", "set", "--status", String(repeating: "s", count: 141)], exit: 65),
        HostileCase(name: "status with a tag character", arguments: ["profile", "set", "--status", "hi\u{E0041}"], exit: 65),
        HostileCase(name: "group title with a newline", arguments: ["chats", "new", "bob@example.com", "--title", "A\nB"], exit: 65),
        HostileCase(name: "group title of spaces", arguments: ["chats", "new", "bob@example.com", "--title", "  "], exit: 65),
        HostileCase(name: "group title with an isolate", arguments: ["chats", "new", "bob@example.com", "--title", "\u{2067}Bank"], exit: 65),
        HostileCase(name: "chat with an unknown user", arguments: ["chats", "new", "nobody@example.com"], exit: 66),
        HostileCase(name: "chat with oneself", arguments: ["chats", "new", "ada@example.com"], exit: 65),
        HostileCase(name: "search for nothing", arguments: ["users", "search", "   "], exit: 65),
        HostileCase(name: "search with a control", arguments: ["users", "search", "a\u{1B}"], exit: 65),
        HostileCase(name: "search of 100,000 characters", arguments: ["users", "search", longReference], exit: 65),
        HostileCase(name: "unknown user's profile", arguments: ["profile", "show", longReference], exit: 66, mentions: "…'"),
    ]

    /// Accounts and passwords: invalid input (65), wrong credentials (78), conflicts (67).
    static let accounts: [HostileCase] = [
        HostileCase(
            name: "sign-up: eight NUL bytes as password", arguments: ["signup", "--email", "n@example.com", "--name", "N", "--password-stdin"],
            stdin: Array(repeating: 0, count: 8) + [10], exit: 65, mentions: "NUL"),
        HostileCase(
            name: "sign-up: 73-byte password", arguments: ["signup", "--email", "n@example.com", "--name", "N", "--password-stdin"],
            stdin: text(String(repeating: "p", count: 73) + "\n"), exit: 65, mentions: "72 bytes"),
        HostileCase(
            name: "sign-up: short password", arguments: ["signup", "--email", "n@example.com", "--name", "N", "--password-stdin"],
            stdin: text("short\n"), exit: 65),
        HostileCase(name: "sign-up: no password", arguments: ["signup", "--email", "n@example.com", "--name", "N", "--password-stdin"], exit: 65),
        HostileCase(
            name: "sign-up: email with a zero-width space",
            arguments: [
                "signup", "--email", "a\u{200B}da@example.com", "--name", "N",
                "--password-stdin",
            ], stdin: text("password123\n"), exit: 65),
        HostileCase(
            name: "sign-up: 300-byte email",
            arguments: [
                "signup", "--email", String(repeating: "e", count: 290) + "@example.com", "--name", "N",
                "--password-stdin",
            ], stdin: text("password123\n"), exit: 65),
        HostileCase(
            name: "sign-up: taken email", arguments: ["signup", "--email", "ADA@example.com", "--name", "Ada", "--password-stdin"],
            stdin: text("password123\n"), exit: 67),
        HostileCase(
            name: "sign-up: name with a control", arguments: ["signup", "--email", "n@example.com", "--name", "N\u{7}", "--password-stdin"],
            stdin: text("password123\n"), exit: 65),
        HostileCase(
            name: "sign-in: NUL-prefixed password", arguments: ["--profile", "other", "login", "--email", "ada@example.com", "--password-stdin"],
            stdin: Array(repeating: 0, count: 8) + [10], exit: 78),
        HostileCase(
            name: "sign-in: the password and more past 72 bytes",
            arguments: [
                "--profile", "other", "login", "--email", "ada@example.com",
                "--password-stdin",
            ],
            stdin: text("password123" + String(repeating: "x", count: 80) + "\n"), exit: 78),
        HostileCase(
            name: "sign-in: unknown email", arguments: ["--profile", "other", "login", "--email", "nobody@example.com", "--password-stdin"],
            stdin: text("password123\n"), exit: 78),
        HostileCase(
            name: "sign-in: password line of 100 KB", arguments: ["--profile", "other", "login", "--email", "ada@example.com", "--password-stdin"],
            stdin: Array(repeating: 0x70, count: 100_000) + [10], exit: 65),
        HostileCase(
            name: "sign-in: an endless password line is refused, not read on",
            arguments: [
                "--profile", "other", "login", "--email",
                "ada@example.com", "--password-stdin",
            ],
            stdin: Array(repeating: 0x70, count: 2_000_000), exit: 65),
        HostileCase(
            name: "passwd: wrong current password", arguments: ["passwd", "--password-stdin"], stdin: text("wrong-one\nnew-password-1\n"), exit: 78),
        HostileCase(
            name: "passwd: new password with NUL", arguments: ["passwd", "--password-stdin"],
            stdin: text("password123\n") + [0, 0, 0, 0, 0, 0, 0, 0, 10],
            exit: 65),
    ]

    /// Configuration from the environment and from files: usage errors (64), whatever runs.
    static let configuration: [HostileCase] = [
        HostileCase(name: "env: unknown backend", arguments: ["chats"], environment: ["MESSAGEAI_BACKEND": "x"], exit: 64),
        HostileCase(name: "env: bcrypt cost 31 (days)", arguments: ["chats"], environment: ["MESSAGEAI_AUTH_BCRYPT_COST": "31"], exit: 64),
        HostileCase(name: "env: bcrypt cost 3", arguments: ["chats"], environment: ["MESSAGEAI_AUTH_BCRYPT_COST": "3"], exit: 64),
        HostileCase(name: "env: failure rate NaN", arguments: ["chats"], environment: ["MESSAGEAI_MEMORY_FAILURE_RATE": "nan"], exit: 64),
        HostileCase(name: "env: failure rate 2", arguments: ["chats"], environment: ["MESSAGEAI_MEMORY_FAILURE_RATE": "2"], exit: 64),
        HostileCase(name: "env: latency -1", arguments: ["chats"], environment: ["MESSAGEAI_MEMORY_LATENCY_MS": "-1"], exit: 64),
        HostileCase(name: "env: session idle 0 days", arguments: ["chats"], environment: ["MESSAGEAI_AUTH_SESSION_IDLE_DAYS": "0"], exit: 64),
        HostileCase(name: "env: unknown feature", arguments: ["chats"], environment: ["MESSAGEAI_FEATURES": "chats"], exit: 64),
        HostileCase(name: "no subcommand and a bad value", arguments: [], environment: ["MESSAGEAI_BACKEND": "x"], exit: 64),
        HostileCase(name: "env: config file missing", arguments: ["chats"], environment: ["MESSAGEAI_CONFIG": "/nonexistent/config.yaml"], exit: 64),
        HostileCase(name: "config: /dev/zero", arguments: ["chats", "--config", "/dev/zero"], exit: 64, mentions: "not a regular file"),
        HostileCase(name: "config: a FIFO", arguments: ["chats"], setup: .configFIFO, exit: 64, mentions: "not a regular file"),
        HostileCase(name: "config: a directory", arguments: ["chats", "--config", "/tmp"], exit: 64),
        HostileCase(name: "config: 100 KB", arguments: ["chats"], setup: .configFile(Array(repeating: 0x23, count: 100_000)), exit: 64),
        HostileCase(
            name: "config: flow lists 10,000 deep", arguments: ["chats"],
            setup: .configFile(text("a: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))), exit: 64),
        HostileCase(
            name: "config: billion laughs", arguments: ["chats"],
            setup: .configFile(text("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b]\n")),
            exit: 64, mentions: "anchors"),
        HostileCase(name: "config: an alias inside quotes", arguments: ["chats"], setup: .configFile(text("a: &x \"y\"\nb: \"*x\"\n")), exit: 64),
        HostileCase(
            name: "config: nesting hidden behind a quote", arguments: ["chats"],
            setup: .configFile(text("a: [\"it's #\", " + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_001) + "\n")),
            exit: 64),
        HostileCase(
            name: "config: block lists 5,000 deep on one line", arguments: ["chats"],
            setup: .configFile(text(String(repeating: "- ", count: 5_000) + "x\n")), exit: 64),
        HostileCase(
            name: "config: not UTF-8", arguments: ["chats"], setup: .configFile([0x62, 0x61, 0x63, 0x6B, 0x65, 0x6E, 0x64, 0x3A, 0xFF, 0xFE]),
            exit: 64),
        HostileCase(name: "config: not a mapping", arguments: ["chats"], setup: .configFile(text("- just\n- a list\n")), exit: 64),
        HostileCase(name: "config: malformed JSON", arguments: ["chats"], setup: .configFile(text("{\"backend\": "), suffix: ".json"), exit: 64),
        HostileCase(
            name: "config: bad value names its key", arguments: ["chats"], setup: .configFile(text("memory:\n  failureRate: 5\n")), exit: 64,
            mentions: "memory.failureRate"),
    ]

    /// Special files as paths: refused at once (69, 77), never a hang; the REPL runs without history.
    static let files: [HostileCase] = [
        HostileCase(name: "database: a FIFO", arguments: ["chats"], setup: .databaseFIFO, exit: 69, mentions: "not a regular file"),
        HostileCase(name: "database: /dev/zero", arguments: ["chats"], environment: ["MESSAGEAI_SQLITE_PATH": "/dev/zero"], exit: 69),
        HostileCase(name: "database: a directory", arguments: ["chats"], environment: ["MESSAGEAI_SQLITE_PATH": "/tmp"], exit: 69),
        HostileCase(
            name: "database: another program's SQLite file, untouched", arguments: ["chats"], setup: .foreignDatabase, exit: 69,
            mentions: "another program"),
        HostileCase(name: "database: a text file", arguments: ["chats"], setup: .textDatabase, exit: 69),
        HostileCase(
            name: "session file: damaged, with a hint", arguments: ["--profile", "hostile", "chats"], setup: .sessionFile(text("{not json")),
            exit: 77,
            mentions: "damaged"),
        HostileCase(name: "session file: binary", arguments: ["--profile", "hostile", "whoami"], setup: .sessionFile([0xFF, 0x00, 0x1B]), exit: 77),
        HostileCase(
            name: "session file: a FIFO", arguments: ["--profile", "hostile", "chats"], setup: .sessionFIFO, exit: 77, mentions: "not a regular file"),
        HostileCase(
            name: "session file: 1 MB", arguments: ["--profile", "hostile", "chats"], setup: .sessionFile(Array(repeating: 0x20, count: 1_000_000)),
            exit: 77),
        HostileCase(
            name: "session file: a forged token", arguments: ["--profile", "hostile", "send", "Bank", "forged"],
            setup: .sessionFile(text(#"{"userID":"u","email":"ada@example.com","token":"forged"}"#)), exit: 77),
        HostileCase(
            name: "history: a FIFO does not hang the REPL", arguments: ["--profile", "hostile", "repl", "--backend", "memory"],
            stdin: text("/quit\n"), setup: .historyFIFO, exit: 0),
    ]

    /// Output that cannot be written: one line on standard error, exit 74.
    static let outputs: [HostileCase] = [
        HostileCase(name: "stdout is /dev/full", arguments: ["chats"], output: .full, exit: 74, mentions: "No space left"),
        HostileCase(name: "stdout is a closed pipe", arguments: ["history", "Bank"], output: .closedPipe, exit: 74, mentions: "Broken pipe"),
        HostileCase(name: "help to /dev/full", arguments: ["--help"], output: .full, exit: 74),
    ]

    /// REPL lines (scripted): answered in the session, which goes on and ends normally.
    static let repl: [HostileCase] = [
        HostileCase(
            name: "REPL: Int.min to /open", arguments: ["repl"], stdin: text("/open -9223372036854775808\n/quit\n"), exit: 0,
            mentions: "error: no conversation"),
        HostileCase(name: "REPL: ambiguous /open", arguments: ["repl"], stdin: text("/open bob\n/quit\n"), exit: 0, mentions: "could mean 2"),
        HostileCase(
            name: "REPL: a 100 KB line is ignored", arguments: ["repl"], stdin: Array(repeating: 0x61, count: 100_000) + text("\n/quit\n"), exit: 0,
            mentions: "was ignored"),
        HostileCase(
            name: "REPL: a line that is not UTF-8", arguments: ["repl"], stdin: [0x2F, 0x6F, 0xFF, 0x0A] + text("/quit\n"), exit: 0,
            mentions: "not valid UTF-8"),
        HostileCase(
            name: "REPL: escape sequences in a command", arguments: ["repl"], stdin: text("/open \u{1B}[2J\n/quit\n"), exit: 0, mentions: "␛[2J"),
        HostileCase(
            name: "REPL: a control character in a message", arguments: ["repl"], stdin: text("/open Bank\nhi\u{7}\n/quit\n"), exit: 0,
            mentions: "control characters"),
        HostileCase(
            name: "REPL: a name with a zero-width space", arguments: ["repl"], stdin: text("/profile\n/name Bob\u{200B} Smith\n/quit\n"), exit: 0,
            mentions: "invisible"),
        HostileCase(name: "REPL: unknown command", arguments: ["repl"], stdin: text("/\u{1B}x\n/quit\n"), exit: 0, mentions: "unknown command"),
    ]
}
