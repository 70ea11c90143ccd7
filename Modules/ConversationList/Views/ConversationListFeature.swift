import ArgumentParser
import CLIKit
import ConversationList
import Foundation
import Kernel
import REPLKit

/// ConversationList's views, plugged into both front ends.
public enum ConversationListFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "conversationlist"

    public static let commands: [any ParsableCommand.Type] = [
        ChatsCommand.self, InvitesCommand.self, LeaveCommand.self, BlockCommand.self,
        BlockCommand.Unblock.self, BlockCommand.List.self, MuteCommand.self, UnmuteCommand.self,
    ]

    @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? {
        route == .conversations ? ConversationListScreen(context: context) : nil
    }

    /// The list is home once signed in.
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? {
        signedIn ? REPLStart(.conversations, rank: 30) : nil
    }

    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
        [
            REPLCommand("new", arguments: "USER", summary: "open or start a one-to-one conversation") { user in
                await start(context: context, users: user, title: nil)
            },
            REPLCommand("group", arguments: "TITLE: USER, USER…", summary: "create a group") { arguments in
                let parts = arguments.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { return context.showError(AppError(.usage, "usage: /group TITLE: USER, USER…")) }
                await start(context: context, users: parts[1], title: parts[0])
            },
            REPLCommand("invites", summary: "list the invitations waiting for you") { _ in await showInvitations(context: context) },
            REPLCommand("accept", arguments: "N|NAME", summary: "accept an invitation and open the conversation") { reference in
                let model = context.factory(ConversationListFactory.self).makeInvitationsViewModel()
                await model.accept(reference)
                await context.present(model.accepted) { summary in context.navigate(.push(.conversation(summary.id))) }
            },
            REPLCommand("decline", arguments: "N|NAME", summary: "decline an invitation") { reference in
                let model = context.factory(ConversationListFactory.self).makeInvitationsViewModel()
                await model.decline(reference)
                await context.present(model.declined) { _ in context.show("Declined.") }
            },
            REPLCommand("leave", arguments: "N|NAME", summary: "leave a conversation") { reference in
                do {
                    let id = try await context.lookup.conversationID(for: reference)
                    let model = context.factory(ConversationListFactory.self).makeConversationListViewModel()
                    await model.leave(id)
                    await context.present(model.left) { _ in
                        context.show("Left.")
                        context.navigate(.reset(.conversations))
                    }
                } catch {
                    context.showError(AppError(error))
                }
            },
            REPLCommand("mute", arguments: "CHAT [mentions] [WHEN]", summary: "quiet a conversation (but for mentions), for good or until WHEN") {
                arguments in
                var words = arguments.split(separator: " ").map(String.init)
                let until = words.count > 1 ? try? MuteEnd.parse(words.last!, now: Date()) : nil
                if until != nil { words.removeLast() }
                let level: NotificationLevel = words.last == "mentions" && words.count > 1 ? .mentions : .none
                if level == .mentions { words.removeLast() }
                await choose(level, until: until, in: words.joined(separator: " "), context: context)
            },
            REPLCommand("unmute", arguments: "N|NAME", summary: "hear a conversation at its standard level again") { reference in
                await choose(nil, until: nil, in: reference, context: context)
            },
            REPLCommand("block", arguments: "USER", summary: "block someone: no invitations, messages or names of yours reach them") { user in
                await changeBlock(context: context, user: user) { await $0.block($1) }
            },
            REPLCommand("unblock", arguments: "USER", summary: "unblock someone") { user in
                await changeBlock(context: context, user: user) { await $0.unblock($1) }
            },
            REPLCommand("blocked", summary: "list whom you have blocked") { _ in
                let model = context.factory(ConversationListFactory.self).makeBlockListViewModel()
                await model.load()
                await context.present(model.blocked) { ids in
                    guard !ids.isEmpty else { return context.show("Nobody.") }
                    let names = (try? await context.lookup.displayNames(of: ids)) ?? [:]
                    ids.forEach { context.show("\(TerminalText.line(names[$0] ?? "unknown user"))  \($0)") }
                }
            },
        ]
    }

    /// Chooses `level` until `until` for the conversation `reference` names, and says so.
    @MainActor static func choose(_ level: NotificationLevel?, until: Date?, in reference: String, context: REPLContext) async {
        do {
            let id = try await context.lookup.conversationID(for: reference)
            let model = context.factory(ConversationListFactory.self).makeConversationListViewModel()
            await model.chooseNotifications(level, until: until, in: id)
            await context.present(model.notificationsChosen) { _ in context.show(MuteEnd.describe(level, until: until)) }
        } catch {
            context.showError(AppError(error))
        }
    }

    /// Shows the invitations waiting, numbered for `/accept` and `/decline`.
    @MainActor static func showInvitations(context: REPLContext) async {
        let model = context.factory(ConversationListFactory.self).makeInvitationsViewModel()
        await model.load()
        await context.present(model.invitations) { invitations in
            guard !invitations.isEmpty else { return context.show("No invitations.") }
            invitations.enumerated().forEach { context.show(ConversationText.invitation($1, number: $0 + 1, console: context.console)) }
            context.say("/accept N to join, /decline N to say no.")
        }
    }

    @MainActor private static func changeBlock(
        context: REPLContext, user: String,
        _ change: @MainActor (BlockListViewModel, UserID) async -> Void
    ) async {
        do {
            let model = context.factory(ConversationListFactory.self).makeBlockListViewModel()
            await change(model, try await context.lookup.userID(for: user))
            await context.present(model.changed) { _ in context.show("Done.") }
        } catch {
            context.showError(AppError(error))
        }
    }

    @MainActor private static func start(context: REPLContext, users: String, title: String?) async {
        let references = users.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard !references.isEmpty else { return context.showError(AppError(.usage, "name at least one user")) }
        do {
            let ids = try await context.lookup.userIDs(for: references)
            let model = context.factory(ConversationListFactory.self).makeConversationListViewModel()
            await model.startConversation(with: ids, title: title)
            await context.present(model.created) { summary in
                ConversationText.notInvited(summary, references: references, ids: ids).forEach(context.show)
                context.navigate(.push(.conversation(summary.id)))
            }
        } catch {
            context.showError(AppError(error))
        }
    }
}
