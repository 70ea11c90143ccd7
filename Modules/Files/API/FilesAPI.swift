import Kernel
import Files

/// Files's wire contract: the endpoints of `FilesService`, each answered by the server's
/// service of the caller (`FilesRoutes`) and called by `RemoteFilesService`.
public enum FilesAPI {
    /// Every item.
    public static let items = Endpoint<NoContent, FilesItems, PathParameters.None>(.get, "/v1/files", "Every files item, oldest first")
    /// Adds an item.
    public static let add = Endpoint<FilesAddition, FilesItem, PathParameters.None>(.post, "/v1/files", "Add a files item")

    /// Every Files endpoint.
    public static let endpoints = [items.spec, add.spec]
}

/// The items, as the server sends them.
public struct FilesItems: WireType, Equatable {
    /// Most items one answer carries.
    public static let maxItems = 10_000

    public let items: [FilesItem]

    /// Creates the answer.
    public init(_ items: [FilesItem]) { self.items = items }

    public static let schema = WireSchema.object([("items", .array(FilesItem.schema, maxItems: maxItems))], required: ["items"])
}

/// The body of an addition.
public struct FilesAddition: WireType, Equatable {
    public let title: String

    /// Creates the body.
    public init(title: String) { self.title = title }

    public static let schema = WireSchema.object([("title", .string(minLength: 1, maxLength: Validation.maxTitleLength))], required: ["title"])
}

extension FilesItem: WireType {
    public static let schema = WireSchema.object([("id", .identifier), ("title", .string(minLength: 1, maxLength: Validation.maxTitleLength))],
                                                 required: ["id", "title"])
}
