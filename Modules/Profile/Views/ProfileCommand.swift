import ArgumentParser

/// `messageai profile show|set`
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show or edit profiles.",
        subcommands: [ShowProfileCommand.self, SetProfileCommand.self], defaultSubcommand: ShowProfileCommand.self)
}
