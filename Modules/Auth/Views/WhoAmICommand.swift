import ArgumentParser
import Auth
import CLIKit
import Kernel

/// `messageai whoami`
struct WhoAmICommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in account.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let model = try context.factory(AuthFactory.self).makeSessionViewModel()
        await model.load()
        guard let account = try context.require(model.account) else { throw AppError.notSignedIn }
        // A bot's token answers its bot, which has no email.
        try context.emit(account, text: [account.email.isEmpty ? "a bot (\(account.id))" : "\(account.email) (\(account.id))"])
    }
}
