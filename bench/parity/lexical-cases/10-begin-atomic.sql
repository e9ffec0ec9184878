create function parity_atomic() returns int language sql
begin atomic
  select 1;
  /* nl: inside a function body */;
  select 2;
end;
select parity_atomic() as n;
