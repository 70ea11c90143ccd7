import ArgumentParser
import CLIKit
import Kernel
import Files

/// `messageai files [--add TITLE]`: lists the items, after adding one if asked.
struct FilesCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "files", abstract: "List Files items (or add one).")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Add an item with this title first.") var add: String?

    func run(in context: CLIContext) async throws {
        let model = try context.factory(FilesFactory.self).makeFilesViewModel()
        if let add {
            await model.add(title: add)
            _ = try context.require(model.added)
        } else {
            await model.load()
        }
        let items = try context.require(model.items)
        try context.emitEach(items, text: items.map { "\($0.id). " + TerminalText.line($0.title) })
    }
}
