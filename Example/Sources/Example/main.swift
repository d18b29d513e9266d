import Foundation

// `swift run --package-path Example Example [--serve] [--port N] [--base-url URL] [--verbose]`
exit(await ExampleCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
