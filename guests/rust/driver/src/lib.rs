//! driver-rust: an inference driver built with rustc instead of Go, to
//! show that a driver from another toolchain runs on mur unchanged. It
//! keeps Murmur's driver contract exactly: the core module exports
//! `murmur:tool/run@0.1.0#run`, its `cabi_post_…` and `cabi_realloc`, and
//! imports `murmur:text/chunks@0.1.0#emit-chunk`; the component wrapping
//! (guests/build.mjs) embeds `driver.wit`, the `driver` world.
//!
//! The canonical-ABI glue below is laid out as wit-bindgen generates it
//! for this world (crates.io is out of reach here, so it is written by
//! hand): strings the host passes in are owned by the callee and freed
//! by it, the result record is written to a static return area whose
//! address `run` returns, and the post-return function frees every block
//! that record points to once the host has read it.
//!
//! What the driver answers is in model.rs.

mod json;
mod model;

use std::alloc::{alloc, dealloc, realloc, Layout};

/// tool-result of murmur:tool@0.1.0 in linear memory: size 52, align 4
/// (wit.md §3.1).
const RESULT_SIZE: usize = 52;

#[repr(C, align(4))]
struct RetArea([u8; RESULT_SIZE]);

static mut RET_AREA: RetArea = RetArea([0; RESULT_SIZE]);

#[link(wasm_import_module = "murmur:text/chunks@0.1.0")]
extern "C" {
    #[link_name = "emit-chunk"]
    fn import_emit_chunk(ptr: *const u8, len: usize);
}

/// emit_chunk streams text to the A2A client; outside an A2A task the host
/// ignores it (wit.md §5.3). The string stays the caller's.
fn emit_chunk(text: &str) {
    unsafe { import_emit_chunk(text.as_ptr(), text.len()) }
}

/// The canonical ABI allocator the host calls to place arguments in this
/// module's memory.
#[no_mangle]
pub unsafe extern "C" fn cabi_realloc(old_ptr: *mut u8, old_len: usize, align: usize, new_len: usize) -> *mut u8 {
    let ptr = if old_len == 0 {
        if new_len == 0 {
            return align as *mut u8;
        }
        alloc(Layout::from_size_align_unchecked(new_len, align))
    } else {
        realloc(old_ptr, Layout::from_size_align_unchecked(old_len, align), new_len)
    };
    if ptr.is_null() {
        core::arch::wasm32::unreachable();
    }
    ptr
}

/// `run: func(input: tool-input) -> tool-result`, lowered: each
/// option<string> field flattens to (discriminant, pointer, length).
#[export_name = "murmur:tool/run@0.1.0#run"]
pub unsafe extern "C" fn export_run(
    data_some: i32,
    data_ptr: i32,
    data_len: i32,
    log_some: i32,
    log_ptr: i32,
    log_len: i32,
) -> *mut u8 {
    let data = lift_option_string(data_some, data_ptr, data_len);
    drop(lift_option_string(log_some, log_ptr, log_len));
    let answer = model::answer(data.as_deref(), emit_chunk);
    let area = RET_AREA.0.as_mut_ptr();
    area.write(answer.status as u8);
    lower_option_string(area.add(4), Some(answer.summary));
    lower_option_string(area.add(16), Some(answer.data));
    lower_option_string(area.add(28), None);
    area.add(40).write(0);
    store_i32(area.add(44), 0);
    store_i32(area.add(48), 0);
    area
}

/// Frees what `run` handed over, once the host has lifted the result.
#[export_name = "cabi_post_murmur:tool/run@0.1.0#run"]
pub unsafe extern "C" fn post_return_run(area: *mut u8) {
    for off in [4, 16, 28] {
        if area.add(off).read() != 0 {
            free(load_i32(area.add(off + 4)), load_i32(area.add(off + 8)), 1);
        }
    }
    // Each metadata element is a tuple of two strings: 16 bytes, align 4.
    let (list, n) = (load_i32(area.add(44)), load_i32(area.add(48)));
    for i in 0..n {
        let elem = (list + i * 16) as *mut u8;
        free(load_i32(elem), load_i32(elem.add(4)), 1);
        free(load_i32(elem.add(8)), load_i32(elem.add(12)), 1);
    }
    free(list, n * 16, 4);
}

/// lift_option_string takes ownership of a string the host allocated with
/// cabi_realloc (align 1), as wit-bindgen's lifting does.
unsafe fn lift_option_string(some: i32, ptr: i32, len: i32) -> Option<String> {
    if some == 0 {
        return None;
    }
    let bytes = Vec::from_raw_parts(ptr as *mut u8, len as usize, len as usize);
    // The host validates UTF-8 before lowering; lossy keeps a broken host
    // from making this code undefined.
    Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// lower_option_string writes an option<string> (12 bytes) at dst, leaking
/// the string's bytes to the host until post-return frees them.
unsafe fn lower_option_string(dst: *mut u8, s: Option<String>) {
    match s {
        None => dst.write(0),
        Some(s) => {
            let bytes = s.into_bytes().into_boxed_slice();
            let len = bytes.len() as i32;
            let ptr = Box::into_raw(bytes) as *mut u8 as i32;
            dst.write(1);
            store_i32(dst.add(4), ptr);
            store_i32(dst.add(8), len);
        }
    }
}

unsafe fn free(ptr: i32, len: i32, align: usize) {
    if len > 0 {
        dealloc(ptr as *mut u8, Layout::from_size_align_unchecked(len as usize, align));
    }
}

unsafe fn store_i32(dst: *mut u8, v: i32) {
    (dst as *mut i32).write(v)
}

unsafe fn load_i32(src: *const u8) -> i32 {
    (src as *const i32).read()
}
