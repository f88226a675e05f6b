//! Generates the plugin protocol code (tfplugin5, tfplugin6, go-plugin's services, gRPC health)
//! from the project's own `.proto` files: protox parses them in pure Rust (no `protoc`), and
//! tonic-prost-build writes the prost messages and the tonic clients and servers.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = [
        "proto/tfplugin5.proto",
        "proto/tfplugin6.proto",
        "proto/plugin.proto",
        "proto/health.proto",
    ];
    for f in files {
        println!("cargo:rerun-if-changed={f}");
    }
    let fds = protox::compile(files, ["proto"])?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .build_transport(false)
        .generate_default_stubs(true)
        .btree_map(".")
        .compile_fds(fds)?;
    Ok(())
}
