import Foundation
import Testing
@testable import CamrecKit

/// The order of a recording's checks, before any camera is looked for: a bad overlay image
/// first, then an existing OUTPUT (not for --print-pipeline, which writes nothing).
@Suite struct RecordJobTests {
    private static let missingCamera = CameraRequest(devices: ["/dev/camrec-no-such-camera"])
    private static let plainPicture = PictureRequest(orientation: Orientation(), text: nil, textPosition: .defaultText,
                                                     imagePath: nil, imagePosition: .defaultImage)

    private func job(output: String, picture: PictureRequest = plainPicture) throws -> RecordJob {
        let stills = try StillSettings.resolve(pattern: nil, format: nil, every: nil, moviePath: output)
        let request = RecordingRequest(output: output, devices: Self.missingCamera.devices, stills: stills)
        let settings = RunSettings(maxDuration: .seconds(1), container: .mp4, encoding: EncodingRequest())
        return RecordJob(request: request, settings: settings, picture: picture, camera: Self.missingCamera)
    }

    private func failure(of job: RecordJob) -> CamrecError? {
        let (output, error) = (CapturedStream(), CapturedStream())
        do {
            _ = try job.run(console: Console(json: false, output: output, error: error))
            return nil
        } catch {
            return error
        }
    }

    private func folderWithOutput() throws -> (folder: URL, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-recordjob-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("keep.mp4").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
        return (folder, output)
    }

    @Test func anExistingOutputIsRefusedBeforeTheCameraIsLookedFor() throws {
        let (folder, output) = try folderWithOutput()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(failure(of: try job(output: output)))
        #expect(error.status == .cannotCreateOutput, "\(error.message)")
        #expect(error.message.contains("already exists"), "\(error.message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("precious".utf8))
    }

    @Test func aBadOverlayImageIsRefusedBeforeTheOutput() throws {
        let (folder, output) = try folderWithOutput()
        defer { try? FileManager.default.removeItem(at: folder) }
        var picture = Self.plainPicture
        picture.imagePath = folder.appendingPathComponent("missing.png").path
        let error = try #require(failure(of: try job(output: output, picture: picture)))
        #expect(error.status == .invalidInput, "\(error.message)")
        #expect(error.message.contains("missing.png"), "\(error.message)")
    }

    @Test func printPipelineDoesNotRefuseAnExistingOutputButNeedsTheCamera() throws {
        let (folder, output) = try folderWithOutput()
        defer { try? FileManager.default.removeItem(at: folder) }
        var job = try job(output: output)
        job.printPipeline = true
        let error = try #require(failure(of: job))
        #expect(error.status == .noCamera, "\(error.message)")
        #expect(error.message.contains("camrec-no-such-camera"), "\(error.message)")
    }

    @Test func aPhotoOverAnExistingFileIsRefusedBeforeTheCameraIsLookedFor() throws {
        let (folder, photo) = try folderWithOutput()
        defer { try? FileManager.default.removeItem(at: folder) }
        let job = StillJob(camera: Self.missingCamera, output: photo, format: .jpeg(quality: 90), picture: Self.plainPicture)
        let (output, error) = (CapturedStream(), CapturedStream())
        do {
            _ = try job.run(console: Console(json: false, output: output, error: error))
            Issue.record("the photo was taken over \(photo)")
        } catch {
            #expect(error.status == .cannotCreateOutput, "\(error.message)")
        }
    }
}
