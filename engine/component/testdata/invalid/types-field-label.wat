(component
  (type (record (field "Bad_Name" u32)))
)
