import Kernel
import Testing
import Files

@Suite("Files")
@MainActor
struct FilesViewModelTests {
    @Test("loading shows the service's items")
    func load() async {
        let model = FilesViewModel(service: Self.service(items: [FilesItem(id: "1", title: "First")]))
        #expect(model.items == .idle)
        await model.load()
        #expect(model.items == .loaded([FilesItem(id: "1", title: "First")]))
    }

    @Test("adding an item lists it after the others")
    func add() async {
        let model = FilesViewModel(service: Self.service(items: []))
        await model.add(title: "  Second  ")
        #expect(model.added == .loaded(FilesItem(id: "1", title: "Second")))
        #expect(model.items == .loaded([FilesItem(id: "1", title: "Second")]))
    }

    @Test("an empty title is refused and nothing is added")
    func emptyTitle() async {
        let model = FilesViewModel(service: Self.service(items: []))
        await model.add(title: "   ")
        #expect(model.added.error?.kind == .invalidInput)
        await model.load()
        #expect(model.items == .loaded([]))
    }

    /// The feature's service holding `items`.
    private static func service(items: [FilesItem]) -> any FilesService { StoredFilesService(store: InMemoryFilesStore(items: items)) }
}
