import ArgumentParser

/// `messageai users search QUERY`
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "users", abstract: "Find people.",
                                                    subcommands: [SearchUsersCommand.self])
}
