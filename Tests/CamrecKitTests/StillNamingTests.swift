@testable import CamrecKit
import Testing

@Suite struct StillNamingTests {
    @Test func defaultNamesSitBesideTheMovie() {
        let naming = StillNaming.beside(moviePath: "clips/day.mp4", format: .jpeg(quality: 90))
        #expect(naming.path(1) == "clips/day-still-0001.jpg")
        #expect(naming.path(12345) == "clips/day-still-12345.jpg")
        #expect(naming.folder == "clips")
    }

    @Test func patternsAndFolders() throws {
        let pattern = try StillNaming.parse("shots/img-%03d.png", moviePath: "a.mkv", format: .png)
        #expect(pattern.path(7) == "shots/img-007.png")
        let percent = try StillNaming.parse("100%%-%d.jpg", moviePath: "a.mkv", format: .jpeg(quality: 90))
        #expect(percent.path(2) == "100%-2.jpg")
        let folder = try StillNaming.parse("shots/", moviePath: "dir/a.mkv", format: .jpeg(quality: 90))
        #expect(folder.path(1) == "shots/a-still-0001.jpg")
    }

    @Test(arguments: ["a-%d-%d.jpg", "a-%s.jpg", "a-%", "a-%123d.jpg", "no-counter-%%.jpg"])
    func badPatterns(_ text: String) {
        #expect(throws: CamrecError.self) { try StillNaming.parse(text, moviePath: "m.mp4", format: .png) }
    }
}

@Suite struct ExposureSettlerTests {
    @Test func settlesOnlyWhenBrightnessStopsChanging() {
        var settler = ExposureSettler()
        // A ramp from black: never stable while it climbs, even slowly.
        for step in 0..<40 { #expect(settler.add(Double(step) * 0.5) == false) }
        var settledAt: Int?
        for frame in 0..<10 where settledAt == nil {
            if settler.add(100 + (frame.isMultiple(of: 2) ? 0.3 : -0.3)) { settledAt = frame }
        }
        #expect(settledAt == ExposureSettler.window - 1)
    }
}
