import Profile

/// How a profile reads in text, for the CLI and the REPL alike.
enum ProfileText {
    static func lines(_ profile: Profile) -> [String] {
        [
            "\(profile.displayName) <\(profile.email)>",
            "  id:     \(profile.id)",
            "  status: \(profile.status.isEmpty ? "(none)" : profile.status)",
        ]
    }

    static func row(_ profile: Profile) -> String {
        "\(profile.displayName) <\(profile.email)>  \(profile.id)"
    }
}
