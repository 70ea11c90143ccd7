import ArgumentParser
import CLIKit
import Kernel
import Profile

/// `messageai profile show|set`
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show or edit profiles.",
        subcommands: [ShowProfileCommand.self, SetProfileCommand.self], defaultSubcommand: ShowProfileCommand.self)
}

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

/// `messageai profile set [--name N] [--status S]`
struct SetProfileCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Change your display name or status.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "New display name, 1–64 characters.") var name: String?
    @Option(help: "New status line, at most 140 characters (\"\" clears it).") var status: String?

    func validate() throws {
        guard name != nil || status != nil else { throw ValidationError("give --name, --status or both") }
    }

    func run(in context: CLIContext) async throws {
        let model = try context.factory(ProfileFactory.self).makeProfileViewModel(subject: nil)
        await model.save(displayName: name, status: status)
        let profile = try context.require(model.update)
        try context.emit(profile, text: ProfileText.lines(profile))
    }
}
