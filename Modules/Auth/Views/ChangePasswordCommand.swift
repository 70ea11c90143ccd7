import ArgumentParser
import Auth
import CLIKit
import Kernel

/// `messageai passwd`
struct ChangePasswordCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Change the password.",
        discussion:
            "Asks for the current password, then the new one twice; with --password-stdin reads the current and the new one, each on its own line.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Read both passwords from standard input, one per line.") var passwordStdin = false

    func run(in context: CLIContext) async throws {
        let current = try context.readPassword(fromStdin: passwordStdin, prompt: "Current password: ")
        let new = try context.readNewPassword(fromStdin: passwordStdin, prompt: "New password: ")
        let model = try context.factory(AuthFactory.self).makeSessionViewModel()
        await model.changePassword(current: current, new: new)
        _ = try context.require(model.lastAction)
        try context.emit(["passwordChanged": true], text: ["Password changed."])
    }
}
