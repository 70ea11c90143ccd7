import CLIKit
import Kernel
import REPLKit
import Files

/// Files's REPL screen: its items; a line typed here adds one.
@MainActor
final class FilesScreen: REPLScreen {
    let prompt = "files> "
    private let context: REPLContext
    private let model: FilesViewModel

    init(context: REPLContext) {
        self.context = context
        model = context.factory(FilesFactory.self).makeFilesViewModel()
    }

    func enter() async {
        context.show("Files: type a line to add an item, /help for more.")
        await model.load()
        await show()
    }

    func handle(_ line: String) async {
        await model.add(title: line)
        if let error = model.added.error { return context.showError(error) }
        await show()
    }

    private func show() async {
        await context.present(model.items) { items in
            items.map { "\($0.id). " + TerminalText.line($0.title) }.forEach(context.show)
        }
    }
}
