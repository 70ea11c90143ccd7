import ArgumentParser
import CLIKit
import ConversationList
import Kernel

/// `messageai invites [accept|decline INVITATION]`
struct InvitesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invites", abstract: "Invitations to conversations waiting for you: list, accept or decline them.",
        discussion:
            "Someone you have not accepted yet can only invite you, one invitation at a time; you see nothing of the conversation until you accept.",
        subcommands: [List.self, Accept.self, Decline.self], defaultSubcommand: List.self)

    /// `messageai invites list`
    struct List: FeatureCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the invitations waiting for you, newest first.")
        @OptionGroup var global: GlobalOptions

        func run(in context: CLIContext) async throws {
            let model = try context.factory(ConversationListFactory.self).makeInvitationsViewModel()
            await model.load()
            let invitations = try context.require(model.invitations)
            let text =
                invitations.isEmpty
                ? ["No invitations."]
                : invitations.enumerated().map { ConversationText.invitation($1, number: $0 + 1, console: context.console) }
            try context.emitEach(invitations, text: text)
        }
    }

    /// `messageai invites accept INVITATION`
    struct Accept: FeatureCommand {
        static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept an invitation: join the conversation.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: InvitesCommand.invitationHelp) var invitation: String

        func run(in context: CLIContext) async throws {
            let model = try context.factory(ConversationListFactory.self).makeInvitationsViewModel()
            await model.accept(invitation)
            let summary = try context.require(model.accepted)
            try context.emit(summary, text: ["Joined \(TerminalText.line(summary.title))  \(summary.id)"])
        }
    }

    /// `messageai invites decline INVITATION`
    struct Decline: FeatureCommand {
        static let configuration = CommandConfiguration(commandName: "decline", abstract: "Decline an invitation.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: InvitesCommand.invitationHelp) var invitation: String

        func run(in context: CLIContext) async throws {
            let model = try context.factory(ConversationListFactory.self).makeInvitationsViewModel()
            await model.decline(invitation)
            let declined = try context.require(model.declined)
            try context.emit(["conversationId": declined.rawValue], text: ["Declined."])
        }
    }

    static let invitationHelp = ArgumentHelp("The invitation: its number in `messageai invites`, its conversation id, or the start of its title.")
}
