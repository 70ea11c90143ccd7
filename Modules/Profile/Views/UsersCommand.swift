import ArgumentParser
import CLIKit
import Kernel
import Profile

/// `messageai users search QUERY`
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Find people.",
        subcommands: [SearchUsersCommand.self])
}

/// `messageai users search QUERY [--limit N]`
struct SearchUsersCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Find users by name or email prefix.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The start of a name or email.") var query: String
    @Option(help: "At most this many results (1–50).") var limit = 20

    func validate() throws {
        guard (1...ProfileRules.maxSearchResults).contains(limit) else {
            throw ValidationError("--limit must be from 1 to \(ProfileRules.maxSearchResults)")
        }
    }

    func run(in context: CLIContext) async throws {
        let model = try context.factory(ProfileFactory.self).makeUserSearchViewModel()
        await model.search(query, limit: limit)
        let results = try context.require(model.results)
        try context.emitEach(
            results, text: results.isEmpty ? ["No users match \(TerminalText.line(AppError.quoting(query)))."] : results.map(ProfileText.row))
    }
}
