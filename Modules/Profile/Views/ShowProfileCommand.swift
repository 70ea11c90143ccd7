import ArgumentParser
import CLIKit
import Kernel
import Profile

/// `messageai profile show [USER]`
struct ShowProfileCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show your profile, or another user's.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A user id or email; yours when left out.") var user: String?

    func run(in context: CLIContext) async throws {
        let model = try context.factory(ProfileFactory.self).makeProfileViewModel(subject: user)
        await model.load()
        let profile = try context.require(model.profile)
        try context.emit(profile, text: ProfileText.lines(profile))
    }
}
