import CLIKit
import Kernel
import Profile
import REPLKit

/// A profile in the REPL; on one's own, `/name` and `/status` edit it.
@MainActor
final class ProfileScreen: REPLScreen {
    let prompt = "profile> "
    private let context: REPLContext
    private let model: ProfileViewModel
    private let isOwn: Bool

    init(context: REPLContext, subject: UserID?) {
        self.context = context
        isOwn = subject == nil
        model = context.factory(ProfileFactory.self).makeProfileViewModel(subject: subject?.rawValue)
    }

    var commands: [REPLCommand] {
        guard isOwn else { return [] }
        return [
            REPLCommand("name", arguments: "NAME", summary: "change your display name") { [unowned self] name in
                await save(name: name, status: nil)
            },
            REPLCommand("status", arguments: "TEXT", summary: "change your status (empty clears it)") { [unowned self] status in
                await save(name: nil, status: status)
            },
        ]
    }

    func enter() async {
        await model.load()
        await show(model.profile)
        if isOwn { context.say("/name NAME or /status TEXT to edit, /back to return.") }
    }

    func handle(_ line: String) async {
        context.show(isOwn ? "Use /name or /status to edit, /back to return." : "/back to return.")
    }

    private func save(name: String?, status: String?) async {
        await model.save(displayName: name, status: status)
        await show(model.update)
    }

    private func show(_ state: Loadable<Profile>) async {
        await context.present(state) { profile in ProfileText.lines(profile).forEach(context.show) }
    }
}
