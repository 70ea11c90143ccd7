import AppContainer
import Kernel
import Testing

/// A service of a feature with no backend-specific implementation, as `new-feature` makes them.
private final class CountingService: Sendable {}

@Suite("Container", .timeLimit(.minutes(1)))
@MainActor
struct SharedServiceTests {
    func memoryContainer() async throws -> AppContainer {
        try await AppContainer(settings: try Settings.load(commandLine: ["backend": "memory"], configFile: nil, environment: [:]))
    }

    @Test("a shared service is made once per container and handed out again; another container makes its own")
    func sharedService() async throws {
        let first = try await memoryContainer()
        var made = 0
        let make = {
            made += 1
            return CountingService()
        }
        let service = first.sharedService(make)
        #expect(first.sharedService(make) === service)
        #expect(made == 1)
        let second = try await memoryContainer()
        #expect(second.sharedService(make) !== service)
        #expect(made == 2)
    }
}
