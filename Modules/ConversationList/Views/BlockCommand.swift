import ArgumentParser
import CLIKit
import ConversationList
import Kernel

/// `messageai block USER`, `unblock USER`, `blocked`
struct BlockCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "block", abstract: "Block someone: you leave your one-to-one with them, they cannot invite or add you, nor see your new names.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Email address or user id.") var user: String

    func run(in context: CLIContext) async throws {
        let model = try context.factory(ConversationListFactory.self).makeBlockListViewModel()
        await model.block(try await context.lookup.userID(for: user))
        try context.emit(["blocked": try context.require(model.changed).rawValue], text: ["Blocked."])
    }

    /// `messageai unblock USER`
    struct Unblock: FeatureCommand {
        static let configuration = CommandConfiguration(
            commandName: "unblock", abstract: "Unblock someone (your one-to-one is not joined again: start it to).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Email address or user id.") var user: String

        func run(in context: CLIContext) async throws {
            let model = try context.factory(ConversationListFactory.self).makeBlockListViewModel()
            await model.unblock(try await context.lookup.userID(for: user))
            try context.emit(["unblocked": try context.require(model.changed).rawValue], text: ["Unblocked."])
        }
    }

    /// `messageai blocked`
    struct List: FeatureCommand {
        static let configuration = CommandConfiguration(commandName: "blocked", abstract: "List whom you have blocked.")
        @OptionGroup var global: GlobalOptions

        func run(in context: CLIContext) async throws {
            let model = try context.factory(ConversationListFactory.self).makeBlockListViewModel()
            await model.load()
            let ids = try context.require(model.blocked)
            let names = try await context.lookup.displayNames(of: ids)
            try context.emitEach(
                ids.map { ["id": $0.rawValue] },
                text: ids.isEmpty ? ["Nobody."] : ids.map { "\(TerminalText.line(names[$0] ?? "unknown user"))  \($0)" })
        }
    }
}
