;; Record fields that differ only in case.
(component
  (type (record (field "x" u32) (field "X" u32)))
)
