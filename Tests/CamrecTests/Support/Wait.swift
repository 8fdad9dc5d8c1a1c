// The one Wait of every test target (Tests/TestSupport).
@_exported import TestSupport
