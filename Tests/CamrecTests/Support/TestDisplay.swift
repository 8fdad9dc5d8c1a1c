import Foundation
import Synchronization

/// A virtual X display (Xvfb) for one test. Xvfb picks a free display number itself and
/// writes it (`-displayfd`) once it accepts connections, so the test neither guesses a
/// number nor sleeps waiting for the server.
final class TestDisplay: @unchecked Sendable {
    /// `:N`, for `DISPLAY`.
    let name: String
    let width: Int
    let height: Int
    private let process = Process()
    private let done = DispatchSemaphore(value: 0)

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(width: Int = 1280, height: Int = 720) throws {
        self.width = width
        self.height = height
        let announce = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ChildProcess.cleanSignals + [
            "Xvfb", "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset",
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = announce
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [done] _ in done.signal() }
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start Xvfb (scripts/deps installs xvfb): \(error)")
        }
        // Read the announced number on another thread, so that a server that never answers
        // fails the test after the bound instead of hanging it.
        let line = Mutex<String?>(nil)
        let read = DispatchSemaphore(value: 0)
        let reader = announce.fileHandleForReading
        Thread.detachNewThread {
            var text = ""
            while !text.contains("\n") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            line.withLock { $0 = text }
            read.signal()
        }
        let number = read.wait(timeout: .now() + 30) == .success
            ? line.withLock { $0 }?.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        guard let number, !number.isEmpty, Int(number) != nil else {
            process.terminate()
            throw Failure(description: "Xvfb did not announce a display within 30 s (got \(number ?? "nothing"))")
        }
        name = ":" + number
    }

    /// This process's environment with `DISPLAY` set to this display (and no Wayland).
    func environment(_ base: [String: String]) -> [String: String] {
        var env = base
        env["DISPLAY"] = name
        env["WAYLAND_DISPLAY"] = nil
        return env
    }

    /// A screenshot of the whole screen (the root window), as PNG, taken by ffmpeg's x11grab.
    func screenshot(to path: String) throws {
        let result = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "x11grab", "-video_size", "\(width)x\(height)", "-i", name,
            "-frames:v", "1", "-y", path,
        ])
        guard result.status == 0 else { throw Failure(description: "ffmpeg x11grab on \(name) failed: \(result.stderr)") }
    }

    /// The VirtualCamera frame number stamped on the picture at the screen's top-left corner
    /// (where a window opens when there is no window manager), nil when the screen does not
    /// show a camera frame there (black, another picture, or no window yet).
    func cameraFrameShown(cameraWidth: Int) -> UInt32? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-screen-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard (try? screenshot(to: path)) != nil else { return nil }
        return (try? FrameStampReader.sequence(inImage: URL(fileURLWithPath: path),
                                               region: .init(x: 0, y: 0, width: cameraWidth))) ?? nil
    }

    /// Asks every top-level window to close, as a window manager's close button does
    /// (WM_DELETE_WINDOW); the number of windows asked.
    @discardableResult
    func closeWindows() throws -> Int {
        let tool = try WindowCloser.built()
        let result = try ChildProcess.run(tool, [], environment: environment(ProcessInfo.processInfo.environment))
        return Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The top-level windows that take WM_DELETE_WINDOW (camrec's), touching none.
    func windowCount() throws -> Int {
        let tool = try WindowCloser.built()
        let result = try ChildProcess.run(tool, ["count"], environment: environment(ProcessInfo.processInfo.environment))
        return Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Presses and releases `key` (an X11 key name: "s", "q") in every top-level window
    /// that takes WM_DELETE_WINDOW (camrec's); the number of windows.
    @discardableResult
    func press(_ key: String) throws -> Int {
        let tool = try WindowCloser.built()
        let result = try ChildProcess.run(tool, ["key", key], environment: environment(ProcessInfo.processInfo.environment))
        return Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        if done.wait(timeout: .now() + 10) == .timedOut { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { stop() }
}

/// A small X client, compiled once per test process, that sends WM_DELETE_WINDOW to the
/// windows that take it (a window manager does this when its close button is pressed; the
/// test display has none), or with `key NAME` a key press and release. Needs libx11-dev.
enum WindowCloser {
    static let source = #"""
        #include <X11/Xlib.h>
        #include <stdio.h>
        #include <string.h>
        int main(int argc, char **argv) {
            int pressing = argc == 3 && strcmp(argv[1], "key") == 0;
            int counting = argc == 2 && strcmp(argv[1], "count") == 0;
            Display *display = XOpenDisplay(NULL);
            if (!display) { fprintf(stderr, "cannot open the display\n"); return 2; }
            Atom protocols = XInternAtom(display, "WM_PROTOCOLS", False);
            Atom close = XInternAtom(display, "WM_DELETE_WINDOW", False);
            Window root, parent, *children = NULL;
            unsigned count = 0;
            if (!XQueryTree(display, DefaultRootWindow(display), &root, &parent, &children, &count)) return 2;
            int asked = 0;
            for (unsigned i = 0; i < count; i++) {
                Atom *list = NULL;
                int n = 0;
                if (!XGetWMProtocols(display, children[i], &list, &n)) continue;
                for (int k = 0; k < n; k++) {
                    if (list[k] != close) continue;
                    if (counting) {
                        asked++;
                        continue;
                    }
                    if (pressing) {
                        XEvent key;
                        memset(&key, 0, sizeof key);
                        key.xkey.window = children[i];
                        key.xkey.root = DefaultRootWindow(display);
                        key.xkey.x = key.xkey.y = key.xkey.x_root = key.xkey.y_root = 1;
                        key.xkey.same_screen = True;
                        key.xkey.time = CurrentTime;
                        key.xkey.keycode = XKeysymToKeycode(display, XStringToKeysym(argv[2]));
                        key.xkey.type = KeyPress;
                        XSendEvent(display, children[i], True, KeyPressMask, &key);
                        key.xkey.type = KeyRelease;
                        XSendEvent(display, children[i], True, KeyReleaseMask, &key);
                        asked++;
                        continue;
                    }
                    XEvent event;
                    memset(&event, 0, sizeof event);
                    event.xclient.type = ClientMessage;
                    event.xclient.window = children[i];
                    event.xclient.message_type = protocols;
                    event.xclient.format = 32;
                    event.xclient.data.l[0] = (long)close;
                    event.xclient.data.l[1] = CurrentTime;
                    XSendEvent(display, children[i], False, NoEventMask, &event);
                    asked++;
                }
                XFree(list);
            }
            if (children) XFree(children);
            XSync(display, False);
            XCloseDisplay(display);
            printf("%d\n", asked);
            return 0;
        }
        """#

    private static let result: Result<String, TestDisplay.Failure> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-closer-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("close-windows.c")
            try source.write(to: file, atomically: true, encoding: .utf8)
            let tool = folder.appendingPathComponent("close-windows").path
            let build = try ChildProcess.run("cc", [file.path, "-o", tool, "-lX11"], timeout: 120)
            guard build.status == 0 else {
                return .failure(.init(description: "cannot build the window closer (scripts/deps installs libx11-dev): \(build.stderr)"))
            }
            return .success(tool)
        } catch {
            return .failure(.init(description: "cannot build the window closer: \(error)"))
        }
    }()

    static func built() throws -> String { try result.get() }
}
