select1 as form_feed;
select 2 as in_comment /*  */; -- 
select '' = chr(11) as in_string;
