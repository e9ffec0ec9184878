select E'\' -- nl: inside an escape string' as s;
select E'a'
'\' /* nl: a continued escape string */' as s;
select 'a' -- a comment between the parts
'b' as s;
select U&'\0041 /* nl: x */' as s;
select b'101' as bits, x'1F' as hex;
select 'it''s /* nl: still a string */' as s;
select e'\\' as backslash; -- nl: a trailing note
