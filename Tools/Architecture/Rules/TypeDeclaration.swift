import SwiftSyntax

/// A struct, class, actor, enum or protocol declaration, seen the same way whatever its kind.
struct TypeDeclaration {
    /// `struct`, `class`, `actor`, `enum` or `protocol`.
    let kind: String
    let name: String
    /// Attribute names without `@` (`MainActor`, `Observable`).
    let attributes: [String]
    /// Modifiers as written (`public`, `private(set)`, `final`).
    let modifiers: [String]
    /// Inherited types as written.
    let inherited: [String]
    let members: MemberBlockSyntax
    let node: DeclSyntax

    /// The declaration `decl` is, if it declares a type.
    init?(_ decl: DeclSyntax) {
        let parts: (String, TokenSyntax, AttributeListSyntax, DeclModifierListSyntax, InheritanceClauseSyntax?, MemberBlockSyntax)
        if let s = decl.as(StructDeclSyntax.self) {
            parts = ("struct", s.name, s.attributes, s.modifiers, s.inheritanceClause, s.memberBlock)
        } else if let c = decl.as(ClassDeclSyntax.self) {
            parts = ("class", c.name, c.attributes, c.modifiers, c.inheritanceClause, c.memberBlock)
        } else if let a = decl.as(ActorDeclSyntax.self) {
            parts = ("actor", a.name, a.attributes, a.modifiers, a.inheritanceClause, a.memberBlock)
        } else if let e = decl.as(EnumDeclSyntax.self) {
            parts = ("enum", e.name, e.attributes, e.modifiers, e.inheritanceClause, e.memberBlock)
        } else if let p = decl.as(ProtocolDeclSyntax.self) {
            parts = ("protocol", p.name, p.attributes, p.modifiers, p.inheritanceClause, p.memberBlock)
        } else {
            return nil
        }
        kind = parts.0
        name = parts.1.text
        attributes = parts.2.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
        modifiers = parts.3.map(\.trimmedDescription)
        inherited = parts.4?.inheritedTypes.map(\.type.trimmedDescription) ?? []
        members = parts.5
        node = decl
    }

    var isProtocol: Bool { kind == "protocol" }

    /// True when not `private` or `fileprivate`.
    var isVisible: Bool { !modifiers.contains("private") && !modifiers.contains("fileprivate") }

    /// The member declarations.
    var memberDecls: [DeclSyntax] { members.members.map(\.decl) }

    /// Stored `var`s (not static, not computed).
    var storedVariables: [VariableDeclSyntax] {
        memberDecls.compactMap { $0.as(VariableDeclSyntax.self) }.filter { variable in
            variable.bindingSpecifier.tokenKind == .keyword(.var)
                && !variable.modifiers.contains { ["static", "class"].contains($0.name.text) }
                && variable.bindings.allSatisfy { binding in
                    guard let accessors = binding.accessorBlock?.accessors else { return true }
                    guard case .accessors(let list) = accessors else { return false }
                    return list.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
                }
        }
    }

    /// The types of stored properties (`let` and `var`), as written.
    var storedPropertyTypes: [(VariableDeclSyntax, TypeSyntax)] {
        memberDecls.compactMap { $0.as(VariableDeclSyntax.self) }
            .filter { variable in !variable.modifiers.contains { $0.name.text == "static" } }
            .flatMap { variable in
                variable.bindings.filter { $0.accessorBlock == nil }.compactMap { binding in
                    binding.typeAnnotation.map { (variable, $0.type) }
                }
            }
    }

    /// Every type declaration at the top level of `file`.
    static func topLevel(in file: SourceFile) -> [TypeDeclaration] {
        file.tree.statements.compactMap { statement in
            guard case .decl(let decl) = statement.item else { return nil }
            return TypeDeclaration(decl)
        }
    }

    /// Every type declaration in `file`, nested ones included.
    static func all(in file: SourceFile) -> [TypeDeclaration] {
        func expand(_ declaration: TypeDeclaration) -> [TypeDeclaration] {
            [declaration] + declaration.memberDecls.compactMap(TypeDeclaration.init).flatMap(expand)
        }
        return topLevel(in: file).flatMap(expand)
    }
}

/// Names of the types a type expression mentions (`AsyncStream<[Row]>` → AsyncStream, Row).
func typeNames(in type: some SyntaxProtocol) -> [String] {
    type.tokens(viewMode: .sourceAccurate).compactMap { token in
        if case .identifier(let name) = token.tokenKind { name } else { nil }
    }
}
