import ArgumentParser
import Auth
import CLIKit
import Kernel

/// `messageai passwd [--reset-code]`
struct ChangePasswordCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Change the password, or set a new one with a reset code.",
        discussion: """
            Asks for the current password, then the new one twice; with --password-stdin reads the current and the new one, \
            each on its own line. With --reset-code, signed out: asks for the code a server's operator gave you \
            (messageai-server admin users reset-password), good once and for an hour, then the new password; every session \
            of the account ends and this one is signed in.
            """)
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Read both from standard input, one per line: the current password (or the reset code) and the new one.")
    var passwordStdin = false
    @Flag(help: "Set a new password with a reset code instead of the current password.") var resetCode = false

    func run(in context: CLIContext) async throws {
        if resetCode {
            let code = try context.readPassword(fromStdin: passwordStdin, prompt: "Reset code: ")
            let new = try context.readNewPassword(fromStdin: passwordStdin, prompt: "New password: ")
            let model = try context.factory(AuthFactory.self).makeSignInViewModel()
            await model.resetPassword(code: code.trimmingCharacters(in: .whitespaces), newPassword: new)
            let account = try context.require(model.state)
            return try context.emit(account, text: ["Password set; every other session ended. Signed in as \(account.email)."])
        }
        let current = try context.readPassword(fromStdin: passwordStdin, prompt: "Current password: ")
        let new = try context.readNewPassword(fromStdin: passwordStdin, prompt: "New password: ")
        let model = try context.factory(AuthFactory.self).makeSessionViewModel()
        await model.changePassword(current: current, new: new)
        _ = try context.require(model.lastAction)
        try context.emit(["passwordChanged": true], text: ["Password changed."])
    }
}
