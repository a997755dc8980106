;; engine-resource-alias: an interface that uses a resource another
;; interface defines, the way wasi:io/streams uses wasi:io/error's error.
;;
;; Imports:  test:host/blobs@0.1.0 { resource blob; make: func(n: u32) -> own<blob> }
;;           test:host/sizes@0.1.0 { type blob = blobs.blob (an alias, not a
;;             new resource); size: func(b: borrow<blob>) -> u32 }
;; Exports:  measure: func(n: u32) -> u32 (make(n), its size, drops the blob)
(component
  (import "test:host/blobs@0.1.0" (instance $blobs
    (export "blob" (type $blob (sub resource)))
    (export "make" (func (param "n" u32) (result (own $blob))))))
  (alias export $blobs "blob" (type $blob))
  (alias export $blobs "make" (func $make))
  (type $sizes-iface (instance
    (alias outer 1 $blob (type $outer-blob))
    (export "blob" (type $b (eq $outer-blob)))
    (export "size" (func (param "b" (borrow $b)) (result u32)))))
  (import "test:host/sizes@0.1.0" (instance $sizes (type $sizes-iface)))
  (alias export $sizes "size" (func $size))

  (core func $make-lowered (canon lower (func $make)))
  (core func $size-lowered (canon lower (func $size)))
  (core func $blob-drop (canon resource.drop $blob))
  (core module $m
    (import "rt" "make" (func $make (param i32) (result i32)))
    (import "rt" "size" (func $size (param i32) (result i32)))
    (import "rt" "drop" (func $drop (param i32)))
    (func (export "measure") (param $n i32) (result i32)
      (local $h i32)
      (local $s i32)
      (local.set $h (call $make (local.get $n)))
      (local.set $s (call $size (local.get $h)))
      (call $drop (local.get $h))
      (local.get $s)))
  (core instance $i (instantiate $m
    (with "rt" (instance
      (export "make" (func $make-lowered))
      (export "size" (func $size-lowered))
      (export "drop" (func $blob-drop))))))
  (func (export "measure") (param "n" u32) (result u32)
    (canon lift (core func $i "measure"))))
