import ArgumentParsing
import Testing

/// What a catalog derives for the writers, and the help `--help [TOPIC]` asks for.
@Suite("ProgramCatalog")
struct ProgramCatalogTests {
    @Test func theHelpSubcommandTakesTheOthersAndTheDefaultsTopics() {
        let catalog = DocumentFixtures.catalog
        #expect(catalog.helpArguments == ["shoot", "cut", "list", "camera", "output"])
        #expect(catalog.defaultEntry?.name == "shoot")
        #expect(catalog.entries.map(catalog.title(of:)) == ["snap [shoot]", "snap cut", "snap list"])
        #expect(catalog.undocumented.isEmpty)
    }

    @Test func aSubcommandWithoutASpecIsUndocumented() {
        let catalog = ProgramCatalog(
            program: "snap", version: "1", subcommands: Subcommands(["shoot", "cut", "sync", "help"], default: "shoot"),
            entries: [ProgramCatalog.Entry(name: "shoot", spec: DocumentFixtures.shoot)], help: "help",
            completion: { _ in .none })
        #expect(catalog.undocumented == ["cut", "sync"])
    }

    @Test func helpForATopicIsTheTopicAFileNameIsNoTopic() throws {
        let spec = DocumentFixtures.shoot
        #expect(try spec.helpText(for: nil) == spec.helpText)
        #expect(try spec.helpText(for: "camera") == spec.helpText(topic: "camera"))
        #expect(try spec.helpText(for: "out.jpg") == spec.helpText)
        // A command without topics takes no word after --help.
        #expect(try DocumentFixtures.cut.helpText(for: "camera") == DocumentFixtures.cut.helpText)
        #expect(throws: UsageError("unknown help topic 'camrea': did you mean 'camera'? the topics are camera, output (see snap --help)")) {
            try spec.helpText(for: "camrea")
        }
        #expect(spec.unknownTopic("xyz").message == "unknown help topic 'xyz': the topics are camera, output (see snap --help)")
    }
}
