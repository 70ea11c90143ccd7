import ArgumentParser
import Auth
import CLIKit
import Kernel

/// `messageai logout`
struct LogoutCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out of this profile.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let model = try context.factory(AuthFactory.self).makeSessionViewModel()
        await model.signOut()
        _ = try context.require(model.lastAction)
        try context.emit(["signedIn": false], text: ["Signed out."])
    }
}
