import CLIKit
import Profile

/// How a profile reads in text, for the CLI and the REPL alike. Everything in a profile was
/// written by its owner, so it goes through `TerminalText`.
enum ProfileText {
    static func lines(_ profile: Profile) -> [String] {
        [
            heading(profile),
            "  id:     " + TerminalText.line(profile.id.rawValue),
            "  status: " + (profile.status.isEmpty ? "(none)" : TerminalText.line(profile.status)),
        ]
    }

    static func row(_ profile: Profile) -> String {
        heading(profile) + "  " + TerminalText.line(profile.id.rawValue)
    }

    /// The name, and the email where the directory shows it.
    private static func heading(_ profile: Profile) -> String {
        TerminalText.line(profile.displayName) + (profile.email.map { " <" + TerminalText.line($0) + ">" } ?? "")
    }
}
