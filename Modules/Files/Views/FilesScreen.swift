import CLIKit
import Files
import Kernel
import REPLKit

/// Files' REPL screen, where the feature runs alone and where `/files CHAT` leads: a line typed
/// here names a conversation, whose files are listed newest first and numbered; `/more` lists
/// older ones, `/save N [PATH]` saves the files of file N's message and `/open N` opens them.
@MainActor
final class FilesScreen: REPLScreen {
    let prompt = "files> "
    private let context: REPLContext
    /// The conversation asked for by the route (`/files CHAT`), listed on entering.
    private let asked: String?
    private var model: FilesViewModel?
    private var conversationID: ConversationID?
    /// How many files are numbered on the screen.
    private var shown = 0

    init(context: REPLContext, asked: String?) {
        self.context = context
        self.asked = asked
    }

    var commands: [REPLCommand] {
        [
            REPLCommand("more", summary: "list older files") { [unowned self] _ in
                guard let model, model.hasOlder else { return context.show("No older files.") }
                await model.more()
                await show(model)
            },
            REPLCommand("save", arguments: "N [PATH]", summary: "save the files of file N's message, here or at PATH") { [unowned self] arguments in
                let words = arguments.split(separator: " ", maxSplits: 1)
                guard let (conversation, file) = numbered(words.first.map(String.init)) else { return }
                do {
                    let destination = words.count > 1 ? String(words[1]) : nil
                    for saved in try await context.lookup.saveFiles(of: file.messageID, in: conversation, to: destination, force: false) {
                        context.show(saved.savedLine)
                    }
                } catch {
                    context.showError(AppError(error))
                }
            },
            REPLCommand("open", arguments: "N", summary: "open the files of file N's message with the desktop's program") { [unowned self] argument in
                guard let (conversation, file) = numbered(argument) else { return }
                do {
                    let (files, opened) = try await context.lookup.openFiles(of: file.messageID, in: conversation)
                    files.forEach { context.show($0.openedLine(opened)) }
                } catch {
                    context.showError(AppError(error))
                }
            },
        ]
    }

    func enter() async {
        guard let asked else { return context.show("Files: type a conversation's name or id to list its files; /help for more.") }
        await handle(asked)
    }

    func handle(_ line: String) async {
        do {
            let conversation = try await context.lookup.conversationID(for: line.trimmingCharacters(in: .whitespaces))
            let model = context.factory(FilesFactory.self).makeFilesViewModel(conversationID: conversation)
            (self.model, conversationID, shown) = (model, conversation, 0)
            await model.load()
            await show(model)
        } catch {
            context.showError(AppError(error))
        }
    }

    /// Numbers the files of `model` not shown yet.
    private func show(_ model: FilesViewModel) async {
        await context.present(model.files) { files in
            if files.isEmpty { return context.show("No files.") }
            for (number, file) in files.enumerated().dropFirst(shown) { context.show("#\(number + 1) " + FileText.line(file)) }
            shown = files.count
            if model.hasOlder { context.show(context.console.styled("/more lists older files", .dim)) }
        }
    }

    /// The conversation and the file numbered `argument` on the screen; `nil`, said, for none.
    private func numbered(_ argument: String?) -> (ConversationID, SharedFile)? {
        let number = argument.flatMap { Int($0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["#"])) }
        guard let conversationID, let files = model?.files.value, let number, (1...files.count).contains(number) else {
            context.show("No such file here: type a conversation, then a number it lists.")
            return nil
        }
        return (conversationID, files[number - 1])
    }
}
